package firestore_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/gcloud"
	"github.com/utpl/simulador/backend/internal/store/firestore"
	"github.com/utpl/simulador/backend/internal/testsupport/earlierapp"
)

// earlierProject writes the earlier app's fixture into a project of its
// own and returns the raw client on it.
func earlierProject(t *testing.T) (string, *fs.Client) {
	t.Helper()
	ctx := context.Background()
	project := newProject("adopt")
	app, err := gcloud.NewApp(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := app.Firestore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	if err := earlierapp.Write(ctx, raw); err != nil {
		t.Fatal(err)
	}
	return project, raw
}

// everything is every document of the project, by path, with its data.
func everything(t *testing.T, raw *fs.Client) map[string]map[string]any {
	t.Helper()
	ctx := context.Background()
	out := map[string]map[string]any{}
	var walk func(cols *fs.CollectionIterator)
	walk = func(cols *fs.CollectionIterator) {
		all, err := cols.GetAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range all {
			snaps, err := c.Documents(ctx).GetAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range snaps {
				out[s.Ref.Path] = s.Data()
			}
			refs, err := c.DocumentRefs(ctx).GetAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range refs {
				walk(r.Collections(ctx))
			}
		}
	}
	walk(raw.Collections(ctx))
	return out
}

func adopt(t *testing.T, project string, dry bool) firestore.AdoptReport {
	t.Helper()
	ctx := context.Background()
	s, err := firestore.OpenForAdopt(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := s.Adopt(ctx, dry, slog.New(slog.NewTextHandler(io.Discard, nil)), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func leftFor(rep firestore.AdoptReport, id string) []string {
	var out []string
	for _, l := range rep.Left {
		if l.ID == id {
			out = append(out, l.Reason)
		}
	}
	return out
}

// TestAdoptTheEarlierAppsProject adopts the earlier app's fixture: a dry
// run changes nothing; the run makes every group show its students, the
// conflicts resolved by the stated rules and reported; a second run
// writes nothing; the earlier app's lists are still there.
func TestAdoptTheEarlierAppsProject(t *testing.T) {
	needEmulator(t)
	ctx := context.Background()
	project, raw := earlierProject(t)
	before := everything(t, raw)

	dry := adopt(t, project, true)
	if after := everything(t, raw); len(after) != len(before) {
		t.Fatalf("a dry run changed the project: %d documents before, %d after", len(before), len(after))
	}
	if dry.Writes == 0 || dry.StudentsCopied != 6 {
		t.Fatalf("dry run: %+v; want writes, and 6 students to copy", dry)
	}

	rep := adopt(t, project, false)
	if rep.Writes != dry.Writes || rep.StudentsCopied != dry.StudentsCopied {
		t.Errorf("the run wrote %d (%d students), the dry run said %d (%d)", rep.Writes, rep.StudentsCopied, dry.Writes, dry.StudentsCopied)
	}
	if rep.Users != 10 || rep.Degrees != 3 || rep.Groups != 4 || rep.ActiveGroups != 2 || rep.GroupsFinalized != 1 || rep.ActiveMembers != 4 {
		t.Errorf("report %+v", rep)
	}
	if rep.CreatedAtSet != 14 || rep.MailsLowercased != 5 {
		t.Errorf("createdAt set %d (want 10 profiles and 4 groups), mails lowered %d (want 2 profiles, 3 groups' tutor)", rep.CreatedAtSet, rep.MailsLowercased)
	}
	for id, want := range map[string]string{
		earlierapp.RepeatedA:         "is also the mail of " + earlierapp.RepeatedB,
		earlierapp.RepeatedB:         "is also the mail of " + earlierapp.RepeatedA,
		earlierapp.DegreePsicoDouble: "differs only in case or accents",
		earlierapp.GroupUnoOld:       "has a newer active group " + earlierapp.GroupUnoNew,
		earlierapp.GroupUnoNew:       "student " + earlierapp.Carla.Mail + " is in active group " + earlierapp.GroupDos + " too",
	} {
		if got := leftFor(rep, id); !slices.ContainsFunc(got, func(r string) bool { return strings.Contains(r, want) }) {
			t.Errorf("left for %s: %q; want a reason with %q", id, got, want)
		}
	}
	if len(rep.Left) != 6 {
		t.Errorf("%d left: %+v", len(rep.Left), rep.Left)
	}

	again := adopt(t, project, false)
	if again.Writes != 0 {
		t.Errorf("a second run wrote %d documents: %+v", again.Writes, again)
	}

	s := open(t, project)
	tutor, err := s.ActiveGroupByTutor(ctx, "Docente.Uno@utpl.edu.ec")
	if err != nil || tutor.ID != earlierapp.GroupUnoNew {
		t.Fatalf("tutor one's active group: %+v, %v", tutor, err)
	}
	var mails []string
	for _, st := range tutor.Estudiantes {
		mails = append(mails, st.Email)
	}
	if want := []string{earlierapp.Ana.Mail, earlierapp.Bruno.Mail}; !slices.Equal(mails, want) {
		t.Errorf("its students %v, want %v", mails, want)
	}
	if tutor.Estudiantes[0].Name != earlierapp.Ana.Name {
		t.Errorf("a student's name is %q, want the profile's", tutor.Estudiantes[0].Name)
	}
	if g, err := s.ActiveGroupOfStudent(ctx, earlierapp.Carla.Mail); err != nil || g.ID != earlierapp.GroupDos {
		t.Errorf("Carla's active group: %+v, %v", g, err)
	}
	if ok, _ := s.IsActiveGroupMember(ctx, earlierapp.Elena.Mail); ok {
		t.Error("a student of a finished group only is an active member")
	}
	old, err := s.GetGroup(ctx, earlierapp.GroupUnoOld)
	if err != nil || old.Status != domain.GroupFinalized || old.FinalizedAt == nil || len(old.Estudiantes) != 1 {
		t.Errorf("the older active group: %+v, %v; want finalized with its student", old, err)
	}
	finished, err := s.GetGroup(ctx, earlierapp.GroupFinished)
	if err != nil || len(finished.Estudiantes) != 1 || finished.Estudiantes[0].Email != earlierapp.Elena.Mail {
		t.Errorf("the finished group: %+v, %v", finished, err)
	}
	u, err := s.GetUserByMail(ctx, earlierapp.TutorUno.Mail)
	if err != nil || u.ID != earlierapp.TutorUno.UID || u.CreatedAt.IsZero() {
		t.Errorf("tutor one's profile: %+v, %v", u, err)
	}
	if err := s.CreateUser(ctx, domain.User{ID: domain.NewID(), Mail: "CARLA.dosgrupos@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: time.Now()}); err == nil {
		t.Error("a second profile for an adopted mail was created")
	}
	if ds, err := s.ListDegrees(ctx); err != nil || len(ds) != 3 {
		t.Errorf("degrees after opening: %+v, %v (the seed must not add a Derecho beside the earlier app's)", ds, err)
	}
	// The earlier app still reads its lists.
	snap, err := raw.Collection("groupStudents").Doc(earlierapp.GroupUnoNew).Get(ctx)
	if err != nil || len(snap.Data()["estudiantes"].([]any)) != 3 {
		t.Errorf("the earlier app's list: %v, %v", snap.Data()["estudiantes"], err)
	}
	// Opening the store (its back-fill) and adopting again still agree.
	if again := adopt(t, project, false); again.Writes != 0 {
		t.Errorf("after the server opened the project, adopt wrote %d documents", again.Writes)
	}
}
