package auth

import (
	"context"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/domain"
)

func TestNewPasswordPolicy(t *testing.T) {
	for _, tc := range []struct {
		password, want string // want: part of the Spanish message, "" when accepted
	}{
		{"clave-segura-123", ""},
		{"Contraseña-é-123", ""},
		{"mi perro se llama Tobías", ""},
		{"corta", "al menos 8 caracteres"},
		{"１２３４５６７", "al menos 8 caracteres"}, // 7 characters after NFKC too
		{strings.Repeat("a", MaxPasswordLength+1), "no puede superar"},
		{"password", "demasiado común"},
		{"PASSWORD1", "demasiado común"},
		{"ｐａｓｓｗｏｒｄ１", "demasiado común"},    // full-width: NFKC first
		{"Password123!", "demasiado común"}, // a common word with digits and a symbol around it
		{"iloveyou2024", "demasiado común"},
		{"12345678", "demasiado común"},
		{"qwertyuiop", "demasiado común"},
		{"utpl2024!", "fácil de adivinar"},
		{"Simulador-1", "fácil de adivinar"},
		{"ana.perez.2024", "su correo"},
	} {
		err := CheckNewPassword(tc.password, "ana.perez@utpl.edu.ec")
		var ue *domain.UserError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q refused: %v", tc.password, err)
		case tc.want != "" && (err == nil || !asUserError(err, &ue) || !strings.Contains(ue.Message, tc.want) || ue.Code != "weak_password"):
			t.Errorf("%q: err = %v, want a weak_password message with %q", tc.password, err, tc.want)
		}
	}
}

func asUserError(err error, ue **domain.UserError) bool {
	v, ok := err.(*domain.UserError)
	*ue = v
	return ok
}

func TestCommonPasswordsListIsLoaded(t *testing.T) {
	list := commonPasswords()
	if len(list) < 15000 {
		t.Fatalf("%d common passwords", len(list))
	}
	for _, p := range []string{"password", "12345678", "football"} {
		if !isCommon(p) {
			t.Errorf("%q not found", p)
		}
	}
}

// Hashes are of the NFKC form, so any form of the same password verifies;
// a hash made before normalisation (of a password with compatibility
// characters) still verifies with the form that was typed then.
func TestPasswordsAreComparedInNFKC(t *testing.T) {
	nfc, nfd := "Contraseña-é-123", "Contrasen\u0303a-e\u0301-123"
	h, err := HashPassword(nfc)
	if err != nil {
		t.Fatal(err)
	}
	for _, typed := range []string{nfc, nfd} {
		if ok, err := VerifyPassword(h, typed); !ok || err != nil {
			t.Errorf("VerifyPassword(%q) = %v, %v", typed, ok, err)
		}
	}
	legacyPassword := "ｃｌａｖｅ-ﬁnal" // full-width letters and a ligature
	legacy, _ := hashRaw(legacyPassword)
	if ok, _ := VerifyPassword(legacy, legacyPassword); !ok {
		t.Error("a hash made before NFKC no longer verifies")
	}
	if ok, _ := VerifyPassword(legacy, "clave-final"); ok {
		t.Error("a legacy hash verified a different password")
	}
}

func TestSetPasswordChecksThePolicyAndEndsEverySession(t *testing.T) {
	s, _ := newTestService(t)
	ctx := context.Background()
	u, err := s.CreateUser(ctx, "ana@utpl.edu.ec", goodPassword, domain.RoleTutor, "Ana Pérez")
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for range 2 {
		tok, err := s.Sessions().Create(ctx, u.ID, "test", "127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, tok)
	}
	if _, err := s.SetPassword(ctx, "ana@utpl.edu.ec", "password1"); errorCode(err) != "weak_password" {
		t.Fatalf("common password = %v", err)
	}
	if _, err := s.SetPassword(ctx, "nadie@utpl.edu.ec", "otra-clave-larga-9"); errorCode(err) != "user_not_found" {
		t.Fatalf("unknown user = %v", err)
	}
	if _, err := s.Sessions().Resolve(ctx, tokens[0]); err != nil {
		t.Fatalf("a refused change ended the session: %v", err)
	}
	if _, err := s.SetPassword(ctx, "ANA@utpl.edu.ec", "otra-clave-larga-9"); err != nil {
		t.Fatal(err)
	}
	for _, tok := range tokens {
		if _, err := s.Sessions().Resolve(ctx, tok); errorCode(err) == "ok" {
			t.Error("a session survived the password change")
		}
	}
	if _, err := s.LoginPassword(ctx, "ana@utpl.edu.ec", goodPassword, "10.0.0.1"); errorCode(err) != CodeInvalidCredentials {
		t.Errorf("old password = %v", err)
	}
	if _, err := s.LoginPassword(ctx, "ana@utpl.edu.ec", "otra-clave-larga-9", "10.0.0.1"); err != nil {
		t.Errorf("new password = %v", err)
	}
}
