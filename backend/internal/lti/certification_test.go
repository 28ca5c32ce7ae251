package lti_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/testsupport/ltitest"
)

// The launches of the LTI Advantage certification's tool tests (the
// known-bad payloads, and the valid instructor and student launches), run
// against the fake platform with one published key and a registration
// that allows tutors, as certification is run. docs/lti.md lists them.
func TestCertificationLaunches(t *testing.T) {
	f := newFixture(t, true)
	n := 0
	// person adds a platform user of its own for one case.
	person := func(email string, roles ...string) string {
		n++
		sub := "cert-" + strings.Repeat("x", n)
		f.platform.AddUser(ltitest.User{Sub: sub, Email: email, Name: "Persona Cert", GivenName: "Persona", FamilyName: "Cert", Roles: roles})
		return sub
	}
	const (
		faculty = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Faculty"
		admin   = "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator"
		mentor  = "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"
		unknown = "http://purl.imsglobal.org/vocab/lis/v2/membership#Unknown"
		roles   = claim + "roles"
	)
	// everyClaim removes every claim the platform would send, for the
	// "Invalid LTI message" payload.
	everyClaim := func(sub string) []string {
		c, err := f.platform.Claims(ltitest.Message{Sub: sub, Context: course})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range c {
			keys = append(keys, k)
		}
		return keys
	}

	t.Run("known-bad payloads are refused", func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			m     ltitest.Message
			claim string // "" for any
		}{
			{"No KID Sent in JWT header", ltitest.Message{NoKeyID: true}, "kid"},
			{"Incorrect KID in JWT header", ltitest.Message{KeyID: "imsglobal-incorrect"}, "kid"},
			{"Wrong LTI Version", ltitest.Message{Set: map[string]any{claim + "version": "1.0.0"}}, claim + "version"},
			{"No LTI Version", ltitest.Message{Remove: []string{claim + "version"}}, claim + "version"},
			{"Invalid LTI message", ltitest.Message{Set: map[string]any{"name": "badltilaunch"}, Remove: everyClaim("s-ana")}, ""},
			{"Missing LTI Claims", ltitest.Message{Remove: []string{claim + "message_type", claim + "version", claim + "deployment_id",
				claim + "target_link_uri", claim + "resource_link", claim + "roles"}}, ""},
			{"Timestamps Incorrect", ltitest.Message{Set: map[string]any{"iat": 11111, "exp": 22222}}, "exp"},
			{"messsage_type Claim Missing", ltitest.Message{Remove: []string{claim + "message_type"}}, claim + "message_type"},
			{"messsage_type Claim Invalid", ltitest.Message{Set: map[string]any{claim + "message_type": "LtiBadMessageType"}}, claim + "message_type"},
			{"role Claim Missing", ltitest.Message{Remove: []string{roles}}, roles},
			{"deployment_id Claim Missing", ltitest.Message{Remove: []string{claim + "deployment_id"}}, claim + "deployment_id"},
			{"resource_link_id Claim Missing", ltitest.Message{Set: map[string]any{claim + "resource_link": map[string]any{"title": "x"}}}, claim + "resource_link"},
			{"resource_link Claim Missing", ltitest.Message{Remove: []string{claim + "resource_link"}}, claim + "resource_link"},
			{"user Claim Missing", ltitest.Message{Remove: []string{"sub"}}, "sub"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				email := "malo" + strings.ReplaceAll(strings.ToLower(tc.name), " ", "") + "@utpl.edu.ec"
				m := tc.m
				m.Sub, m.Context = person(email, ltitest.RoleLearner), course
				l, err := f.launch(m)
				if err == nil {
					_, _, err = f.svc.SignIn(ctx, l)
				}
				var le *lti.LaunchError
				if !errors.As(err, &le) || (tc.claim != "" && le.Claim != tc.claim) {
					t.Fatalf("launch = %+v, %v; want a refusal naming %q", l, err, tc.claim)
				}
				if _, err := f.store.GetUserByMail(ctx, email); !errors.Is(err, domain.ErrNotFound) {
					t.Fatalf("a refused launch made a profile: %v", err)
				}
			})
		}
	})

	t.Run("valid launches sign in", func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			roles []string
			edit  func(*ltitest.Message)
			want  domain.Role
		}{
			{"Valid Instructor Launch", []string{ltitest.RoleInstructor}, nil, domain.RoleTutor},
			{"Valid Instructor Launch with Roles", []string{ltitest.RoleInstructor, faculty, admin}, nil, domain.RoleTutor},
			{"Valid Instructor Launch Short Role", []string{"Instructor"}, nil, domain.RoleTutor},
			{"Valid Instructor Launch Unknown Role", []string{ltitest.RoleInstructor, unknown}, nil, domain.RoleTutor},
			{"Valid Instructor Launch No Role", []string{}, nil, domain.RoleStudent},
			{"Valid Instructor Launch Email Only", []string{ltitest.RoleInstructor}, func(m *ltitest.Message) {
				m.Remove = []string{"name", "given_name", "family_name"}
			}, domain.RoleTutor},
			{"Valid Instructor Launch Email Without Context", []string{ltitest.RoleInstructor}, func(m *ltitest.Message) { m.Context = "" }, domain.RoleTutor},
			{"Valid Student Launch", []string{ltitest.RoleLearner}, nil, domain.RoleStudent},
			{"Valid Student Launch with Roles", []string{ltitest.RoleLearner, ltitest.RoleStudentIns, mentor}, nil, domain.RoleStudent},
			{"Valid Student Launch Short Role", []string{"Learner"}, nil, domain.RoleStudent},
			{"Valid Student Launch Unknown Role", []string{ltitest.RoleLearner, unknown}, nil, domain.RoleStudent},
			{"Valid Student Launch No Role", []string{}, nil, domain.RoleStudent},
			{"Valid Student Launch Empty Role", []string{""}, nil, domain.RoleStudent},
			{"Valid Student Launch Email Only", []string{ltitest.RoleLearner}, func(m *ltitest.Message) {
				m.Remove = []string{"name", "given_name", "family_name"}
			}, domain.RoleStudent},
			{"Valid Student Launch Email Without Context", []string{ltitest.RoleLearner}, func(m *ltitest.Message) { m.Context = "" }, domain.RoleStudent},
			{"Valid Student Launch System and Institution Roles", []string{ltitest.RoleLearner, ltitest.RoleStudentIns, admin}, nil, domain.RoleStudent},
		} {
			t.Run(tc.name, func(t *testing.T) {
				email := "valido" + strings.ReplaceAll(strings.ToLower(tc.name), " ", "") + "@utpl.edu.ec"
				m := ltitest.Message{Sub: person(email, tc.roles...), Context: course, Set: map[string]any{roles: tc.roles}}
				if tc.edit != nil {
					tc.edit(&m)
				}
				l, err := f.launch(m)
				if err != nil {
					t.Fatal(err)
				}
				u, _, err := f.svc.SignIn(ctx, l)
				if err != nil || u.Role != tc.want || u.Mail != email {
					t.Fatalf("sign-in = %+v, %v; want a %s", u, err, tc.want)
				}
				// No PII: the same subject again, now linked, without email or
				// names, is the same profile.
				again := ltitest.Message{Sub: m.Sub, Context: m.Context, Set: m.Set, Remove: []string{"email", "name", "given_name", "family_name"}}
				if l, err = f.launch(again); err != nil {
					t.Fatal(err)
				}
				if v, _, err := f.svc.SignIn(ctx, l); err != nil || v.ID != u.ID {
					t.Fatalf("no-PII launch of a linked subject = %+v, %v", v, err)
				}
			})
		}
	})
}
