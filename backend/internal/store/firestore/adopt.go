package firestore

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/utpl/simulador/backend/internal/domain"
)

// Adopting a project of the product's earlier Firebase app (simulador
// adopt): the earlier app wrote users, degree and groupStudents with the
// names this store reads, but kept each group's students in the list
// field estudiantes and wrote none of the documents this store derives
// (userMails, degreeNames, activeGroups, activeMembers). Adopt writes
// them, in place, from what is there, so the server can be started on the
// project. It changes only what the earlier app cannot notice (mail case,
// a missing createdAt), except for the one stated rule below that
// finalizes groups; the estudiantes lists stay for the earlier app.
//
// Rules, each reported (and logged) where it applies:
//   - a profile without createdAt gets its document's creation time;
//     mails are stored in lower case;
//   - a mail in two profiles is left: neither gets the mail's key
//     document, and the administrator decides which profile stays;
//   - degrees whose names differ only in case or accents are reported,
//     not merged (groups and cases refer to them by ID);
//   - a tutor with several active groups keeps the newest (createdAt,
//     else the document's creation time; then the smaller ID) or the one
//     this server already named; the others are finalized;
//   - a student listed in several active groups becomes a member of the
//     one this server already names, else of the newest; the other groups
//     do not get a member document for them (their lists keep them).
//
// Nothing records progress: every run compares what is there with what
// should be and writes only the difference, so a run that stopped is
// finished by the next, and a second run writes nothing.

// OpenForAdopt connects to the project without writing anything: no seed
// degree and no membership back-fill (Open's work), so that a dry run
// changes nothing.
func OpenForAdopt(ctx context.Context, projectID string) (*Store, error) {
	return connect(ctx, projectID)
}

// AdoptLeft is a document adopt could not make ready, and why.
type AdoptLeft struct {
	Kind   string // users, degree, groupStudents, estudiantes
	ID     string
	Reason string
}

// AdoptReport counts what a run found and what it wrote (or, dry, would
// write).
type AdoptReport struct {
	Users, Degrees, Groups, ActiveGroups, ListedStudents int

	MailsLowercased    int // profiles and tutors' mails
	CreatedAtSet       int // profiles and groups without createdAt
	UserMailsCreated   int
	DegreeNamesCreated int
	StudentsCopied     int // member documents created from the lists
	GroupsFinalized    int // a tutor's older active groups
	ActiveGroupLocks   int // activeGroups documents written
	ActiveMembers      int // activeMembers documents created

	Writes int
	Left   []AdoptLeft
}

// Adopt makes the earlier app's documents ready for this store (see the
// rules above). dryRun computes and reports the same without writing.
func (s *Store) Adopt(ctx context.Context, dryRun bool, log *slog.Logger, now time.Time) (AdoptReport, error) {
	a := &adoption{s: s, log: log, now: now.UTC(), pending: map[string]*adoptWrite{}}
	if err := a.run(ctx); err != nil {
		return a.rep, err
	}
	a.rep.Writes = len(a.order)
	if dryRun || len(a.order) == 0 {
		return a.rep, nil
	}
	bw := s.c.BulkWriter(ctx)
	jobs := make([]*firestore.BulkWriterJob, 0, len(a.order))
	var err error
	for _, w := range a.order {
		var j *firestore.BulkWriterJob
		if w.create {
			j, err = bw.Create(w.ref, w.data)
		} else {
			j, err = bw.Set(w.ref, w.data, firestore.MergeAll)
		}
		if err != nil {
			break
		}
		jobs = append(jobs, j)
	}
	bw.End()
	for _, j := range jobs {
		if _, jerr := j.Results(); jerr != nil && status.Code(jerr) != codes.AlreadyExists && err == nil {
			err = jerr
		}
	}
	if err != nil {
		return a.rep, fmt.Errorf("write: %w", err)
	}
	return a.rep, nil
}

type adoption struct {
	s   *Store
	log *slog.Logger
	now time.Time
	// pending are the writes, one per document (changes to one document
	// merged), in the order they were found.
	pending map[string]*adoptWrite
	order   []*adoptWrite
	rep     AdoptReport
	// names by mail, for the member documents
	names map[string]string
}

type adoptWrite struct {
	ref    *firestore.DocumentRef
	data   map[string]any
	create bool
}

func (a *adoption) leave(kind, id, reason string, attrs ...any) {
	a.rep.Left = append(a.rep.Left, AdoptLeft{Kind: kind, ID: id, Reason: reason})
	a.log.Warn("adopt: "+reason, append([]any{"kind", kind, "id", id}, attrs...)...)
}

// write records one write: a new document (create), or fields to merge
// into an existing one.
func (a *adoption) write(ref *firestore.DocumentRef, data map[string]any, create bool) error {
	if w, ok := a.pending[ref.Path]; ok {
		for k, v := range data {
			w.data[k] = v
		}
		return nil
	}
	w := &adoptWrite{ref: ref, data: data, create: create}
	a.pending[ref.Path] = w
	a.order = append(a.order, w)
	return nil
}

func (a *adoption) all(ctx context.Context, coll string) ([]*firestore.DocumentSnapshot, error) {
	snaps, err := a.s.c.Collection(coll).Documents(ctx).GetAll()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", coll, err)
	}
	return snaps, nil
}

// existingIDs reads which of refs exist, 300 at a time.
func (a *adoption) existing(ctx context.Context, refs []*firestore.DocumentRef) (map[string]fields, error) {
	out := make(map[string]fields, len(refs))
	for chunk := range slices.Chunk(refs, 300) {
		snaps, err := a.s.c.GetAll(ctx, chunk)
		if err != nil {
			return nil, err
		}
		for _, sn := range snaps {
			if sn.Exists() {
				out[sn.Ref.Path] = sn.Data()
			}
		}
	}
	return out, nil
}

func (a *adoption) run(ctx context.Context) error {
	if err := a.users(ctx); err != nil {
		return err
	}
	if err := a.degrees(ctx); err != nil {
		return err
	}
	return a.groups(ctx)
}

func (a *adoption) users(ctx context.Context) error {
	snaps, err := a.all(ctx, colUsers)
	if err != nil {
		return err
	}
	a.rep.Users = len(snaps)
	a.names = map[string]string{}
	byMail := map[string][]string{}
	for _, sn := range snaps {
		mail := domain.NormalizeEmail(fields(sn.Data()).str("mail"))
		byMail[mail] = append(byMail[mail], sn.Ref.ID)
	}
	var keys []*firestore.DocumentRef
	for _, sn := range snaps {
		keys = append(keys, a.s.ref(colUserMails, domain.NormalizeEmail(fields(sn.Data()).str("mail"))))
	}
	have, err := a.existing(ctx, keys)
	if err != nil {
		return err
	}
	for i, sn := range snaps {
		f := fields(sn.Data())
		raw := f.str("mail")
		mail := domain.NormalizeEmail(raw)
		changes := map[string]any{}
		if _, ok := f["createdAt"].(time.Time); !ok {
			changes["createdAt"] = sn.CreateTime.UTC()
			a.rep.CreatedAtSet++
		}
		if role := domain.Role(f.str("role")); role != domain.RoleTutor && role != domain.RoleStudent {
			a.leave(colUsers, sn.Ref.ID, fmt.Sprintf("role %q is neither tutor nor estudiante: the profile cannot sign in until `simulador users set-role` gives it one", f.str("role")))
		}
		switch {
		case !domain.ValidEmail(mail):
			a.leave(colUsers, sn.Ref.ID, fmt.Sprintf("mail %q is not a valid address: the profile cannot sign in", raw))
		case len(byMail[mail]) > 1:
			a.leave(colUsers, sn.Ref.ID, fmt.Sprintf("mail %s is also the mail of %s: neither gets it here until one of them is changed or deleted", mail,
				strings.Join(slices.DeleteFunc(slices.Clone(byMail[mail]), func(id string) bool { return id == sn.Ref.ID }), ", ")))
		default:
			a.names[mail] = f.str("displayName")
			if raw != mail {
				changes["mail"] = mail
				a.rep.MailsLowercased++
			}
			switch k, ok := have[keys[i].Path]; {
			case !ok:
				if err := a.write(keys[i], map[string]any{"userId": sn.Ref.ID}, true); err != nil {
					return err
				}
				a.rep.UserMailsCreated++
			case fields(k).str("userId") != sn.Ref.ID:
				a.leave(colUsers, sn.Ref.ID, fmt.Sprintf("mail %s is held by profile %s in %s", mail, fields(k).str("userId"), colUserMails))
			}
		}
		if len(changes) > 0 {
			if err := a.write(sn.Ref, changes, false); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *adoption) degrees(ctx context.Context) error {
	snaps, err := a.all(ctx, colDegrees)
	if err != nil {
		return err
	}
	a.rep.Degrees = len(snaps)
	byFold := map[string][]*firestore.DocumentSnapshot{}
	keys := make([]*firestore.DocumentRef, len(snaps))
	for i, sn := range snaps {
		name := fields(sn.Data()).str("nombre")
		byFold[domain.FoldName(name)] = append(byFold[domain.FoldName(name)], sn)
		keys[i] = a.s.ref(colDegreeNames, name)
	}
	have, err := a.existing(ctx, keys)
	if err != nil {
		return err
	}
	for i, sn := range snaps {
		name := fields(sn.Data()).str("nombre")
		if strings.TrimSpace(name) == "" {
			a.leave(colDegrees, sn.Ref.ID, "the degree has no nombre")
			continue
		}
		if same := byFold[domain.FoldName(name)]; len(same) > 1 {
			var others []string
			for _, o := range same {
				if o.Ref.ID != sn.Ref.ID {
					others = append(others, fmt.Sprintf("%s «%s»", o.Ref.ID, fields(o.Data()).str("nombre")))
				}
			}
			a.leave(colDegrees, sn.Ref.ID, fmt.Sprintf("«%s» differs only in case or accents from %s: both stay (groups refer to each by ID); the case bank is loaded into one of them, so give the others' groups that degree in the earlier app or rename them",
				name, strings.Join(others, ", ")))
		}
		switch k, ok := have[keys[i].Path]; {
		case !ok:
			if err := a.write(keys[i], map[string]any{"degreeId": sn.Ref.ID}, true); err != nil {
				return err
			}
			a.rep.DegreeNamesCreated++
		case fields(k).str("degreeId") != sn.Ref.ID:
			a.leave(colDegrees, sn.Ref.ID, fmt.Sprintf("the name «%s» is held by degree %s in %s", name, fields(k).str("degreeId"), colDegreeNames))
		}
	}
	return nil
}

// earlierGroup is a group as adopt sees it.
type earlierGroup struct {
	snap     *firestore.DocumentSnapshot
	g        domain.Group
	listed   []listed // from the estudiantes list, normalised, once each
	finalize bool     // an older active group of its tutor
}

type listed struct {
	email    string
	attempts any
}

func (a *adoption) groups(ctx context.Context) error {
	snaps, err := a.all(ctx, colGroups)
	if err != nil {
		return err
	}
	a.rep.Groups = len(snaps)
	var groups []*earlierGroup
	for _, sn := range snaps {
		f := fields(sn.Data())
		g, _ := groupFrom(doc{ref: sn.Ref, data: f, exists: true})
		changes := map[string]any{}
		if _, ok := f["createdAt"].(time.Time); !ok {
			g.CreatedAt = sn.CreateTime.UTC()
			changes["createdAt"] = g.CreatedAt
			a.rep.CreatedAtSet++
		}
		if raw := f.sub("docente").str("email"); raw != g.DocenteEmail {
			changes["docente"] = map[string]any{"email": g.DocenteEmail}
			a.rep.MailsLowercased++
		}
		if g.Status != domain.GroupActive && g.Status != domain.GroupFinalized {
			a.leave(colGroups, sn.Ref.ID, fmt.Sprintf("status %q is neither activo nor finalizado: the group is not shown", f.str("status")))
			continue
		}
		if !domain.ValidEmail(g.DocenteEmail) {
			a.leave(colGroups, sn.Ref.ID, fmt.Sprintf("docente.email %q is not a valid address: no tutor sees the group", f.sub("docente").str("email")))
			continue
		}
		if len(changes) > 0 {
			if err := a.write(sn.Ref, changes, false); err != nil {
				return err
			}
		}
		eg := &earlierGroup{snap: sn, g: g}
		seen := map[string]bool{}
		for i, e := range f.list("estudiantes") {
			email := domain.NormalizeEmail(e.str("email"))
			switch {
			case !domain.ValidEmail(email):
				a.leave("estudiantes", sn.Ref.ID, fmt.Sprintf("entry %d of the list has no valid email (%q): not copied", i+1, e.str("email")))
			case !seen[email]:
				seen[email] = true
				eg.listed = append(eg.listed, listed{email: email, attempts: e["attempts"]})
			}
		}
		a.rep.ListedStudents += len(eg.listed)
		groups = append(groups, eg)
	}

	// The tutors' locks and the students' memberships this server wrote.
	var locks, members []*firestore.DocumentRef
	for _, eg := range groups {
		if eg.g.Status == domain.GroupActive {
			locks = append(locks, a.s.ref(colActiveGroups, eg.g.DocenteEmail))
			for _, l := range eg.listed {
				members = append(members, a.s.membershipRef(l.email))
			}
		}
	}
	haveLocks, err := a.existing(ctx, locks)
	if err != nil {
		return err
	}
	haveMembers, err := a.existing(ctx, members)
	if err != nil {
		return err
	}

	// One active group per tutor.
	byTutor := map[string][]*earlierGroup{}
	for _, eg := range groups {
		if eg.g.Status == domain.GroupActive {
			byTutor[eg.g.DocenteEmail] = append(byTutor[eg.g.DocenteEmail], eg)
		}
	}
	kept := map[string]*earlierGroup{} // by group ID
	for _, tutor := range sortedKeys(byTutor) {
		active := byTutor[tutor]
		slices.SortFunc(active, func(x, y *earlierGroup) int { return newestFirst(x.g, y.g) })
		keep := active[0]
		lockRef := a.s.ref(colActiveGroups, tutor)
		if l, ok := haveLocks[lockRef.Path]; ok {
			for _, eg := range active {
				if eg.g.ID == fields(l).str("groupId") {
					keep = eg
				}
			}
		}
		kept[keep.g.ID] = keep
		for _, eg := range active {
			if eg != keep {
				eg.finalize = true
				a.leave(colGroups, eg.g.ID, fmt.Sprintf("tutor %s has a newer active group %s: this one is finalized (its students stay in its list and its history)", tutor, keep.g.ID),
					"tutor", tutor, "keptGroup", keep.g.ID)
			}
		}
		if l, ok := haveLocks[lockRef.Path]; !ok || fields(l).str("groupId") != keep.g.ID {
			if err := a.write(lockRef, map[string]any{"groupId": keep.g.ID}, false); err != nil {
				return err
			}
			a.rep.ActiveGroupLocks++
		}
	}
	for _, eg := range groups {
		if eg.finalize {
			if err := a.write(eg.snap.Ref, map[string]any{"status": string(domain.GroupFinalized), "finalizedAt": a.now}, false); err != nil {
				return err
			}
			a.rep.GroupsFinalized++
		}
	}

	// One active group per student: the one this server names, else the
	// newest kept group that lists them.
	keptOrder := make([]*earlierGroup, 0, len(kept))
	for _, eg := range kept {
		keptOrder = append(keptOrder, eg)
	}
	slices.SortFunc(keptOrder, func(x, y *earlierGroup) int { return newestFirst(x.g, y.g) })
	memberOf := map[string]string{} // student -> group ID
	for _, eg := range keptOrder {
		for _, l := range eg.listed {
			if m, ok := haveMembers[a.s.membershipRef(l.email).Path]; ok {
				if _, isKept := kept[fields(m).str("groupId")]; isKept || memberOf[l.email] == "" {
					memberOf[l.email] = fields(m).str("groupId")
				}
			}
		}
	}
	for _, eg := range keptOrder {
		for _, l := range eg.listed {
			if memberOf[l.email] == "" {
				memberOf[l.email] = eg.g.ID
			}
		}
	}

	// Member documents: every student of a finished group, and the
	// students of a kept group whose one active group it is.
	for _, eg := range groups {
		var copyNow []listed
		for _, l := range eg.listed {
			if _, isKept := kept[eg.g.ID]; isKept && memberOf[l.email] != eg.g.ID {
				a.leave("estudiantes", eg.g.ID, fmt.Sprintf("student %s is in active group %s too: kept there, not copied here", l.email, memberOf[l.email]),
					"student", l.email, "keptGroup", memberOf[l.email], "tutor", eg.g.DocenteEmail)
				continue
			}
			copyNow = append(copyNow, l)
		}
		refs := make([]*firestore.DocumentRef, len(copyNow))
		for i, l := range copyNow {
			refs[i] = a.s.memberRef(eg.g.ID, l.email)
		}
		have, err := a.existing(ctx, refs)
		if err != nil {
			return err
		}
		for i, l := range copyNow {
			if _, ok := have[refs[i].Path]; ok {
				continue
			}
			attempts := l.attempts
			if attempts == nil {
				attempts = []any{}
			}
			if err := a.write(refs[i], map[string]any{"email": l.email, "name": a.names[l.email], "addedAt": eg.g.CreatedAt, "attempts": attempts}, true); err != nil {
				return err
			}
			a.rep.StudentsCopied++
		}
	}
	a.rep.ActiveGroups = len(kept)
	for _, email := range sortedKeys(memberOf) {
		ref := a.s.membershipRef(email)
		if _, ok := haveMembers[ref.Path]; ok {
			continue
		}
		if err := a.write(ref, map[string]any{"email": email, "groupId": memberOf[email]}, true); err != nil {
			return err
		}
		a.rep.ActiveMembers++
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
