// Package movein brings a faculty's earlier Firebase app to this server:
// its Firebase Authentication accounts, with their password hashes, into
// any store (simulador users import-firebase). The Firestore side (the
// earlier app's collections made ready in place) is the Firestore store's
// Adopt. docs/moving-in.md is the administrator's runbook.
package movein

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// AuthExport is the file `firebase auth:export users.json` writes (JSON
// format): the fields this import reads; others (phoneNumber,
// customAttributes, ...) are ignored.
type AuthExport struct {
	Users []ExportedUser `json:"users"`
}

// ExportedUser is one account of the export. Times are milliseconds since
// 1970 as strings (numbers are accepted too).
type ExportedUser struct {
	LocalID          string         `json:"localId"`
	Email            string         `json:"email"`
	EmailVerified    bool           `json:"emailVerified"`
	PasswordHash     string         `json:"passwordHash"`
	Salt             string         `json:"salt"`
	DisplayName      string         `json:"displayName"`
	PhotoURL         string         `json:"photoUrl"`
	CreatedAt        json.Number    `json:"createdAt"`
	LastSignedInAt   json.Number    `json:"lastSignedInAt"`
	Disabled         bool           `json:"disabled"`
	ProviderUserInfo []ProviderInfo `json:"providerUserInfo"`
}

// ProviderInfo is one sign-in method of an account.
type ProviderInfo struct {
	ProviderID string `json:"providerId"`
	RawID      string `json:"rawId"`
	Email      string `json:"email"`
}

// MaxExportBytes bounds the export read (far above 5,000 accounts, about
// 3 MB).
const MaxExportBytes = 256 << 20

// ReadAuthExport parses an export, refusing a truncated or empty one.
func ReadAuthExport(r io.Reader) (AuthExport, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxExportBytes+1))
	if err != nil {
		return AuthExport{}, err
	}
	if len(data) > MaxExportBytes {
		return AuthExport{}, fmt.Errorf("the export is larger than %d MB", MaxExportBytes>>20)
	}
	var exp AuthExport
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&exp); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return AuthExport{}, fmt.Errorf("the export is not complete JSON (cut short?): %v; export it again with `firebase auth:export users.json --format=json`", err)
		}
		return AuthExport{}, fmt.Errorf("the export is not in the format of `firebase auth:export` (JSON): %v", err)
	}
	if dec.More() {
		return AuthExport{}, errors.New("the export has data after its end: it is not one `firebase auth:export` file")
	}
	if len(exp.Users) == 0 {
		return AuthExport{}, errors.New(`the export holds no users (no "users" list)`)
	}
	return exp, nil
}

// ImportReport is what an import did (or, dry, would do).
type ImportReport struct {
	Exported        int
	Matched         int // profiles found by uid
	Created         int // profiles created with role estudiante
	Passwords       int // Firebase credentials stored
	Unchanged       int // already stored as they are
	KeptLocal       int // profiles that already have a password of this server
	MicrosoftOnly   int // no password: they sign in with Microsoft
	Disabled        int
	Left            []Left
	MicrosoftLinked int // accounts with a Microsoft sign-in method
}

// Left is an account not imported, and why.
type Left struct{ UID, Email, Reason string }

// b64 decodes the standard or URL-safe base64 Firebase tools write.
func b64(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// DecodeParams turns the Console's values into parameters, checking them.
func DecodeParams(signerKey, separator string, rounds, memCost int) (auth.FirebaseScryptParams, error) {
	key, err := b64(signerKey)
	if err != nil || len(key) == 0 {
		return auth.FirebaseScryptParams{}, errors.New("the hash key (base64_signer_key) is not base64")
	}
	sep, err := b64(separator)
	if err != nil {
		return auth.FirebaseScryptParams{}, errors.New("--salt-separator (base64_salt_separator) is not base64")
	}
	p := auth.FirebaseScryptParams{SignerKey: key, SaltSeparator: sep, Rounds: rounds, MemCost: memCost}
	return p, p.Validate()
}

type planned struct {
	u      ExportedUser
	mail   string
	cred   string
	create bool
}

// ImportFirebase stores the export's accounts. Every account is checked
// before anything is written: a malformed hash, a mail in two accounts or
// a hash that does not fit the parameters refuses the whole file.
// Accounts are matched by uid to the profiles (the earlier app keyed
// users by it) or created with role estudiante; a password is stored as
// the Firebase credential, replaced by argon2id at its first sign-in.
// Importing again changes nothing; with other parameters, it replaces the
// credentials nobody has signed in with yet.
func ImportFirebase(ctx context.Context, st store.Store, exp AuthExport, p auth.FirebaseScryptParams, dryRun bool, log *slog.Logger, now time.Time) (ImportReport, error) {
	rep := ImportReport{Exported: len(exp.Users)}
	if err := p.Validate(); err != nil {
		return rep, err
	}
	plan, err := planImport(exp, p)
	if err != nil {
		return rep, err
	}

	var mu sync.Mutex
	leave := func(u ExportedUser, reason string) {
		mu.Lock()
		rep.Left = append(rep.Left, Left{UID: u.LocalID, Email: u.Email, Reason: reason})
		mu.Unlock()
		log.Warn("import-firebase: "+reason, "uid", u.LocalID)
	}
	count := func(f *int) { mu.Lock(); *f++; mu.Unlock() }
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, pl := range plan {
		g.Go(func() error {
			return importOne(gctx, st, pl, dryRun, now, &rep, count, leave)
		})
	}
	if err := g.Wait(); err != nil {
		return rep, err
	}
	slices.SortFunc(rep.Left, func(a, b Left) int { return strings.Compare(a.UID, b.UID) })
	if rep.Passwords+rep.Unchanged > 0 && !dryRun {
		if err := st.SetMeta(ctx, auth.FirebaseImportMeta, p.Tag()); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func importOne(ctx context.Context, st store.Store, pl *planned, dryRun bool, now time.Time, rep *ImportReport,
	count func(*int), leave func(ExportedUser, string)) error {
	u := pl.u
	for _, pi := range u.ProviderUserInfo {
		if pi.ProviderID == "microsoft.com" {
			count(&rep.MicrosoftLinked)
			break
		}
	}
	profile, err := st.GetUser(ctx, u.LocalID)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		if !domain.ValidEmail(pl.mail) {
			leave(u, fmt.Sprintf("no profile and no valid mail (%q): nothing to sign in with", u.Email))
			return nil
		}
		if other, err := st.GetUserByMail(ctx, pl.mail); err == nil {
			leave(u, fmt.Sprintf("no profile with this uid, and the mail %s is profile %s's: not imported", pl.mail, other.ID))
			return nil
		} else if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		given, surname := domain.SplitName(u.DisplayName)
		created := msTime(u.CreatedAt, now)
		profile = domain.User{ID: u.LocalID, Mail: pl.mail, DisplayName: strings.Join(strings.Fields(u.DisplayName), " "),
			GivenName: given, Surname: surname, PhotoURL: u.PhotoURL, Role: domain.RoleStudent, CreatedAt: created}
		pl.create = true
	case err != nil:
		return err
	default:
		if pl.mail != "" && profile.Mail != pl.mail {
			leave(u, fmt.Sprintf("the profile's mail is %s and the account's %s: imported; the user signs in with %s", profile.Mail, pl.mail, profile.Mail))
		}
	}
	var stored, action string
	unchanged := false
	err = st.InTx(ctx, func(tx store.Store) error {
		action, unchanged = "", false
		if pl.create {
			if !dryRun {
				if err := tx.CreateUser(ctx, profile); err != nil {
					return err
				}
			}
			action = "created"
		}
		cur := ""
		if !pl.create {
			if cur, err = tx.PasswordHash(ctx, u.LocalID); err != nil {
				return err
			}
		}
		stored = cur
		want := pl.cred
		switch {
		case cur == want:
			unchanged = true
			return nil
		case cur != "" && !auth.IsFirebaseCredential(cur) && !auth.IsDisabledCredential(cur):
			// A password of this server (set here, or an imported one
			// already replaced at sign-in) stands; a disabled account is
			// disabled with it.
			if !u.Disabled {
				stored = "local"
				return nil
			}
			want = auth.DisabledCredential(cur)
		}
		stored = want
		if dryRun {
			return nil
		}
		return tx.SetPasswordHash(ctx, u.LocalID, want)
	})
	if err != nil {
		return fmt.Errorf("account %s: %w", u.LocalID, err)
	}
	if action == "created" {
		count(&rep.Created)
	} else {
		count(&rep.Matched)
	}
	switch {
	case u.Disabled:
		count(&rep.Disabled)
	case stored == "local":
		count(&rep.KeptLocal)
	case pl.cred == "":
		count(&rep.MicrosoftOnly)
	case unchanged:
		count(&rep.Unchanged)
	default:
		count(&rep.Passwords)
	}
	return nil
}

// msTime reads Firebase's milliseconds, or gives def.
func msTime(n json.Number, def time.Time) time.Time {
	ms, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || ms <= 0 {
		return def.UTC()
	}
	return time.UnixMilli(ms).UTC()
}

// CheckExport checks every account of the export against the parameters,
// as ImportFirebase does before writing, without a store.
func CheckExport(exp AuthExport, p auth.FirebaseScryptParams) error {
	if err := p.Validate(); err != nil {
		return err
	}
	_, err := planImport(exp, p)
	return err
}

func planImport(exp AuthExport, p auth.FirebaseScryptParams) ([]*planned, error) {
	byMail := map[string]string{}
	seen := map[string]bool{}
	var plan []*planned
	for i, u := range exp.Users {
		where := fmt.Sprintf("account %d (uid %q)", i+1, u.LocalID)
		if strings.TrimSpace(u.LocalID) == "" || strings.ContainsAny(u.LocalID, "/") {
			return nil, fmt.Errorf("%s: no valid localId", where)
		}
		if seen[u.LocalID] {
			return nil, fmt.Errorf("%s: the uid appears twice", where)
		}
		seen[u.LocalID] = true
		mail := domain.NormalizeEmail(u.Email)
		if mail != "" {
			if other, dup := byMail[mail]; dup {
				return nil, fmt.Errorf("the mail %s belongs to two accounts (uid %s and %s): sign-in by mail could not tell them apart; delete or change one in Firebase and export again", mail, other, u.LocalID)
			}
			byMail[mail] = u.LocalID
		}
		pl := &planned{u: u, mail: mail}
		if u.PasswordHash != "" {
			hash, err := b64(u.PasswordHash)
			if err != nil {
				return nil, fmt.Errorf("%s: passwordHash is not base64", where)
			}
			salt, err := b64(u.Salt)
			if err != nil || len(salt) == 0 {
				return nil, fmt.Errorf("%s: salt is missing or not base64", where)
			}
			if len(hash) != len(p.SignerKey) {
				return nil, fmt.Errorf("%s: its hash has %d bytes and the hash key %d: the hash key is not this project's (Authentication > Users > ⋮ > Password hash parameters)", where, len(hash), len(p.SignerKey))
			}
			pl.cred = auth.FirebaseCredential(p, salt, hash)
		}
		if u.Disabled {
			pl.cred = auth.DisabledCredential(pl.cred)
		}
		plan = append(plan, pl)
	}

	return plan, nil
}
