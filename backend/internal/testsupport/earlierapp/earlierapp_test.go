package earlierapp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"strconv"
	"testing"

	"github.com/utpl/simulador/backend/internal/auth"
)

var update = flag.Bool("update", false, "write auth-export.json from the accounts")

// TestAuthExportHashesAreFirebases checks every password hash of the
// export against its account's password with Firebase's algorithm (whose
// implementation the auth package checks against the published vector),
// and that the published sample account has the published hash. With
// -update it writes the export first.
func TestAuthExportHashesAreFirebases(t *testing.T) {
	p := Params()
	if *update {
		var users []map[string]any
		for i, a := range Accounts {
			u := map[string]any{"localId": a.UID, "email": a.Mail, "emailVerified": a.Microsoft, "displayName": a.Name,
				"createdAt": itoa(1_690_000_000_000 + int64(i)*86_400_000), "lastSignedInAt": itoa(1_720_000_000_000 + int64(i)*3_600_000)}
			if a.Password != "" {
				salt, err := base64.StdEncoding.DecodeString(a.Salt)
				if err != nil {
					t.Fatal(err)
				}
				h, err := auth.FirebaseScryptHash(p, salt, a.Password)
				if err != nil {
					t.Fatal(err)
				}
				u["passwordHash"], u["salt"] = base64.StdEncoding.EncodeToString(h), a.Salt
				u["providerUserInfo"] = []any{map[string]any{"providerId": "password", "rawId": a.Mail, "email": a.Mail, "displayName": a.Name}}
			}
			if a.Microsoft {
				u["providerUserInfo"] = []any{map[string]any{"providerId": "microsoft.com", "rawId": "00000000-0000-0000-0000-00000000000" + itoa(int64(i)), "email": a.Mail, "displayName": a.Name}}
			}
			if a.Disabled {
				u["disabled"] = true
			}
			users = append(users, u)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]any{"users": users}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("auth-export.json", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		AuthExport = buf.Bytes()
	}
	var exp struct {
		Users []struct {
			LocalID, PasswordHash, Salt string
		} `json:"users"`
	}
	if err := json.Unmarshal(AuthExport, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp.Users) != len(Accounts) {
		t.Fatalf("%d users exported, %d accounts", len(exp.Users), len(Accounts))
	}
	for i, a := range Accounts {
		u := exp.Users[i]
		if u.LocalID != a.UID || (u.PasswordHash == "") != (a.Password == "") {
			t.Fatalf("export user %d is %+v, account %+v", i, u, a)
		}
		if a.Password == "" {
			continue
		}
		salt, _ := base64.StdEncoding.DecodeString(u.Salt)
		h, err := auth.FirebaseScryptHash(p, salt, a.Password)
		if err != nil || base64.StdEncoding.EncodeToString(h) != u.PasswordHash {
			t.Errorf("%s: the exported hash is not Firebase's hash of %q (%v)", a.Mail, a.Password, err)
		}
	}
	const published = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
	for i, a := range Accounts {
		if a.UID == Sample.UID && exp.Users[i].PasswordHash != published {
			t.Errorf("the sample account's hash is %s, the published one %s", exp.Users[i].PasswordHash, published)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
