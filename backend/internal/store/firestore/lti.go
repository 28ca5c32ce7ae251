package firestore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// LTI 1.3 (docs/lti.md):
//   - ltiPlatforms/{id} a registered platform; ltiPlatformKeys/{issuer|clientId}
//     names it and makes the pair unique;
//   - ltiKeys/{kid} the tool's signing keys;
//   - ltiOnce/{kind|key} single-use records (login state, used nonces,
//     sign-in codes);
//   - ltiCourses/{id} a course launched from; ltiCourseTutors/{course|user}
//     who launched from it as its instructor, and when;
//   - ltiSubjects/{platform|email} a person's LTI subject on a platform;
//   - ltiGroupLinks/{groupId} the course and gradebook column of a group.
const (
	colLTIPlatforms    = "ltiPlatforms"
	colLTIPlatformKeys = "ltiPlatformKeys"
	colLTIKeys         = "ltiKeys"
	colLTIOnce         = "ltiOnce"
	colLTICourses      = "ltiCourses"
	colLTICourseTutors = "ltiCourseTutors"
	colLTISubjects     = "ltiSubjects"
	colLTIGroupLinks   = "ltiGroupLinks"
)

func platformFields(p domain.LTIPlatform) map[string]any {
	return map[string]any{
		"issuer": p.Issuer, "clientId": p.ClientID, "deploymentIds": anyList(p.DeploymentIDs), "authUrl": p.AuthURL,
		"tokenUrl": p.TokenURL, "jwksUrl": p.JWKSURL, "frameOrigins": anyList(p.FrameOrigins), "allowTutors": p.AllowTutors,
		"createdAt": ts(p.CreatedAt),
	}
}

func platformFrom(d doc) (domain.LTIPlatform, error) {
	f := d.data
	return domain.LTIPlatform{
		ID: d.ref.ID, Issuer: f.str("issuer"), ClientID: f.str("clientId"), DeploymentIDs: f.strs("deploymentIds"),
		AuthURL: f.str("authUrl"), TokenURL: f.str("tokenUrl"), JWKSURL: f.str("jwksUrl"), FrameOrigins: f.strs("frameOrigins"),
		AllowTutors: f.bool("allowTutors"), CreatedAt: f.time("createdAt"),
	}, nil
}

// anyList is a list of strings as Firestore stores it (never null).
func anyList(v []string) []any {
	out := make([]any, len(v))
	for i, s := range v {
		out[i] = s
	}
	return out
}

func (s *Store) CreateLTIPlatform(ctx context.Context, p domain.LTIPlatform) error {
	return s.write(ctx, func(t *txn) error {
		refs := []*firestoreRef{s.ref(colLTIPlatforms, p.ID), s.ref(colLTIPlatformKeys, p.Issuer, p.ClientID)}
		docs, err := t.getAll(ctx, refs)
		if err != nil {
			return err
		}
		if docs[0].exists || docs[1].exists {
			return fmt.Errorf("%w: platform %s with client id %s is registered", domain.ErrConflict, p.Issuer, p.ClientID)
		}
		t.create(refs[0], platformFields(p))
		t.create(refs[1], map[string]any{"platformId": p.ID})
		return nil
	})
}

func (s *Store) GetLTIPlatform(ctx context.Context, id string) (domain.LTIPlatform, error) {
	return getOne(ctx, s.read(), s.ref(colLTIPlatforms, id), platformFrom)
}

func (s *Store) ListLTIPlatforms(ctx context.Context) ([]domain.LTIPlatform, error) {
	docs, err := s.read().query(ctx, collection(colLTIPlatforms))
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, platformFrom)
	slices.SortFunc(out, func(a, b domain.LTIPlatform) int {
		if c := strings.Compare(a.Issuer, b.Issuer); c != 0 {
			return c
		}
		return strings.Compare(a.ClientID, b.ClientID)
	})
	return out, err
}

func (s *Store) DeleteLTIPlatform(ctx context.Context, id string) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.ref(colLTIPlatforms, id), "platform "+id)
		if err != nil {
			return err
		}
		t.delete(d.ref)
		t.delete(s.ref(colLTIPlatformKeys, d.data.str("issuer"), d.data.str("clientId")))
		return nil
	})
}

func keyFields(k domain.LTIKey) map[string]any {
	return map[string]any{"privateKey": k.PrivateKeyPEM, "createdAt": ts(k.CreatedAt), "retiredAt": tsPtr(k.RetiredAt)}
}

func keyFrom(d doc) (domain.LTIKey, error) {
	f := d.data
	return domain.LTIKey{ID: d.ref.ID, PrivateKeyPEM: f.str("privateKey"), CreatedAt: f.time("createdAt"), RetiredAt: f.timePtr("retiredAt")}, nil
}

// AddLTIKey reads every key in its transaction (there are a handful), so
// two rotations at once cannot both leave their key current.
func (s *Store) AddLTIKey(ctx context.Context, k domain.LTIKey, retireAt time.Time) error {
	return s.write(ctx, func(t *txn) error {
		docs, err := t.query(ctx, collection(colLTIKeys))
		if err != nil {
			return err
		}
		ref := s.ref(colLTIKeys, k.ID)
		for _, d := range docs {
			if d.ref.ID == ref.ID {
				return fmt.Errorf("key %s: %w", k.ID, domain.ErrConflict)
			}
			if d.data["retiredAt"] == nil {
				t.update(d, map[string]any{"retiredAt": ts(retireAt)})
			}
		}
		t.create(ref, keyFields(k))
		return nil
	})
}

func (s *Store) ListLTIKeys(ctx context.Context) ([]domain.LTIKey, error) {
	docs, err := s.read().query(ctx, collection(colLTIKeys))
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, keyFrom)
	slices.SortFunc(out, func(a, b domain.LTIKey) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out, err
}

func (s *Store) PutLTIOnce(ctx context.Context, o domain.LTIOnce) error {
	return s.write(ctx, func(t *txn) error {
		ref := s.ref(colLTIOnce, o.Kind, o.Key)
		d, err := t.get(ctx, ref)
		if err != nil {
			return err
		}
		if d.exists {
			return fmt.Errorf("%w: %s record exists", domain.ErrConflict, o.Kind)
		}
		t.create(ref, map[string]any{"kind": o.Kind, "key": o.Key, "data": o.Data, "expiresAt": ts(o.ExpiresAt)})
		return nil
	})
}

// TakeLTIOnce reads and deletes in one transaction: of two takes at once,
// Firestore reruns the second, which then finds nothing.
func (s *Store) TakeLTIOnce(ctx context.Context, kind, key string, now time.Time) (domain.LTIOnce, error) {
	var taken domain.LTIOnce
	err := s.write(ctx, func(t *txn) error {
		taken = domain.LTIOnce{}
		d, err := t.existing(ctx, s.ref(colLTIOnce, kind, key), kind+" record")
		if err != nil {
			return err
		}
		t.delete(d.ref)
		taken = domain.LTIOnce{Kind: kind, Key: key, Data: d.data.str("data"), ExpiresAt: d.data.time("expiresAt")}
		return nil
	})
	if err != nil {
		return domain.LTIOnce{}, err
	}
	if !now.Before(taken.ExpiresAt) {
		return domain.LTIOnce{}, fmt.Errorf("%s record expired: %w", kind, domain.ErrNotFound)
	}
	return taken, nil
}

func (s *Store) DeleteExpiredLTIOnce(ctx context.Context, now time.Time) (int64, error) {
	return s.deleteExpired(ctx, collection(colLTIOnce).with(cond{"expiresAt", "<=", now}).take(expiredBatch))
}

func courseFields(c domain.LTICourse) map[string]any {
	return map[string]any{
		"platformId": c.PlatformID, "deploymentId": c.DeploymentID, "contextId": c.ContextID, "title": c.Title, "label": c.Label,
		"membershipsUrl": c.MembershipsURL, "lineItemsUrl": c.LineItemsURL, "serviceScopes": anyList(c.ServiceScopes),
		"degree": c.Degree, "updatedAt": ts(c.UpdatedAt),
	}
}

func courseFrom(d doc) (domain.LTICourse, error) {
	f := d.data
	return domain.LTICourse{
		ID: d.ref.ID, PlatformID: f.str("platformId"), DeploymentID: f.str("deploymentId"), ContextID: f.str("contextId"),
		Title: f.str("title"), Label: f.str("label"), MembershipsURL: f.str("membershipsUrl"), LineItemsURL: f.str("lineItemsUrl"),
		ServiceScopes: f.strs("serviceScopes"), Degree: f.str("degree"), UpdatedAt: f.time("updatedAt"),
	}, nil
}

func (s *Store) PutLTICourse(ctx context.Context, c domain.LTICourse) error {
	return s.write(ctx, func(t *txn) error {
		t.set(s.ref(colLTICourses, c.ID), courseFields(c))
		return nil
	})
}

func (s *Store) GetLTICourse(ctx context.Context, id string) (domain.LTICourse, error) {
	return getOne(ctx, s.read(), s.ref(colLTICourses, id), courseFrom)
}

func courseTutorFields(courseID, userID string, at time.Time) map[string]any {
	return map[string]any{"courseId": courseID, "userId": userID, "launchedAt": ts(at)}
}

func (s *Store) LinkLTICourseTutor(ctx context.Context, courseID, userID string, at time.Time) error {
	return s.write(ctx, func(t *txn) error {
		t.set(s.ref(colLTICourseTutors, courseID, userID), courseTutorFields(courseID, userID, at))
		return nil
	})
}

// ListLTICoursesOfTutor reads the tutor's links (one field, no composite
// index), then their courses in one round trip, and orders them here.
func (s *Store) ListLTICoursesOfTutor(ctx context.Context, userID string) ([]domain.LTICourse, error) {
	r := s.read()
	links, err := r.query(ctx, collection(colLTICourseTutors).whereEq("userId", userID))
	if err != nil {
		return nil, err
	}
	refs := make([]*firestoreRef, len(links))
	for i, l := range links {
		refs[i] = s.ref(colLTICourses, l.data.str("courseId"))
	}
	docs, err := r.getAll(ctx, refs)
	if err != nil {
		return nil, err
	}
	var out []domain.LTICourse
	for i, d := range docs {
		if !d.exists {
			continue
		}
		c, err := courseFrom(d)
		if err != nil {
			return nil, err
		}
		c.LaunchedAt = links[i].data.time("launchedAt")
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b domain.LTICourse) int {
		if c := b.LaunchedAt.Compare(a.LaunchedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

func (s *Store) subjectRef(platformID, email string) *firestoreRef {
	return s.ref(colLTISubjects, platformID, domain.NormalizeEmail(email))
}

func subjectFields(sub domain.LTISubject) map[string]any {
	return map[string]any{"platformId": sub.PlatformID, "email": domain.NormalizeEmail(sub.Email), "subject": sub.Subject, "updatedAt": ts(sub.UpdatedAt)}
}

func subjectFrom(d doc) (domain.LTISubject, error) {
	f := d.data
	return domain.LTISubject{PlatformID: f.str("platformId"), Email: f.str("email"), Subject: f.str("subject"), UpdatedAt: f.time("updatedAt")}, nil
}

func (s *Store) PutLTISubjects(ctx context.Context, subjects []domain.LTISubject) error {
	return s.write(ctx, func(t *txn) error {
		for _, sub := range subjects {
			t.set(s.subjectRef(sub.PlatformID, sub.Email), subjectFields(sub))
		}
		return nil
	})
}

func (s *Store) LTISubjectByEmail(ctx context.Context, platformID, email string) (domain.LTISubject, error) {
	return getOne(ctx, s.read(), s.subjectRef(platformID, email), subjectFrom)
}

// PutLTIGroupLink keeps the first CreatedAt of a link it replaces, as the
// SQL stores do.
func (s *Store) PutLTIGroupLink(ctx context.Context, l domain.LTIGroupLink) error {
	return s.write(ctx, func(t *txn) error {
		ref := s.ref(colLTIGroupLinks, l.GroupID)
		d, err := t.get(ctx, ref)
		if err != nil {
			return err
		}
		f := groupLinkFields(l)
		if d.exists {
			f["createdAt"] = d.data["createdAt"]
		}
		t.set(ref, f)
		return nil
	})
}

func groupLinkFields(l domain.LTIGroupLink) map[string]any {
	return map[string]any{"courseId": l.CourseID, "lineItemUrl": l.LineItemURL, "lineItemLabel": l.LineItemLabel,
		"createdAt": ts(l.CreatedAt), "updatedAt": ts(l.UpdatedAt)}
}

func groupLinkFrom(d doc) (domain.LTIGroupLink, error) {
	f := d.data
	return domain.LTIGroupLink{GroupID: d.ref.ID, CourseID: f.str("courseId"), LineItemURL: f.str("lineItemUrl"),
		LineItemLabel: f.str("lineItemLabel"), CreatedAt: f.time("createdAt"), UpdatedAt: f.time("updatedAt")}, nil
}

func (s *Store) GetLTIGroupLink(ctx context.Context, groupID string) (domain.LTIGroupLink, error) {
	return getOne(ctx, s.read(), s.ref(colLTIGroupLinks, groupID), groupLinkFrom)
}

// GetJobBySubject finds the job through its jobSubjects key.
func (s *Store) GetJobBySubject(ctx context.Context, kind, subject string) (domain.Job, error) {
	if subject == "" {
		return domain.Job{}, fmt.Errorf("job without subject: %w", domain.ErrNotFound)
	}
	r := s.read()
	k, err := r.get(ctx, s.ref(colJobSubjects, kind, subject))
	if err != nil {
		return domain.Job{}, err
	}
	if !k.exists {
		return domain.Job{}, fmt.Errorf("%s job for %q: %w", kind, subject, domain.ErrNotFound)
	}
	return getOne(ctx, r, s.ref(colJobs, k.data.str("jobId")), jobFrom)
}

func (s *Store) RetryJob(ctx context.Context, id string, now time.Time) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.ref(colJobs, id), "job "+id)
		if err != nil {
			return err
		}
		if d.data.str("status") == domain.JobRunning {
			return fmt.Errorf("%w: job %s is running", domain.ErrConflict, id)
		}
		t.update(d, map[string]any{"status": domain.JobPending, "nextRunAt": ts(now), "lastError": "", "lockedUntil": nil, "updatedAt": ts(now)})
		return nil
	})
}
