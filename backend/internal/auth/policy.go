package auth

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/utpl/simulador/backend/internal/domain"
)

// Rules for a new password. Eight characters is the least a password may
// have; longer passphrases are welcome, up to a cap that keeps a pasted
// document out of the hash.
const (
	MinPasswordLength = 8
	MaxPasswordLength = 256
)

// NormalizePassword puts a password in Unicode NFKC, so the same password
// typed as composed or decomposed accents, or with full-width letters,
// is the same password.
func NormalizePassword(password string) string { return norm.NFKC.String(password) }

//go:embed common-passwords.txt
var commonPasswordsFile string

// commonPasswords is the sorted list of common-passwords.txt, read once.
var commonPasswords = sync.OnceValue(func() []string {
	var list []string
	for line := range strings.Lines(commonPasswordsFile) {
		if line = strings.TrimRight(line, "\r\n"); line != "" && !strings.HasPrefix(line, "#") {
			list = append(list, line)
		}
	}
	slices.Sort(list)
	return list
})

func isCommon(lower string) bool {
	_, found := slices.BinarySearch(commonPasswords(), lower)
	return found
}

// contextWords are what anyone would try first against this site's users.
var contextWords = []string{"utpl", "simulador", "complexivo", "examen", "derecho", "abogado", "abogada", "loja", "ecuador",
	"contraseña", "contrasena", "clave", "password", "estudiante", "tutor", "tutora", "universidad"}

// CheckNewPassword applies the rules for a password being set (account
// creation, a password change or reset): the length after NFKC, not in
// the list of common passwords (nor a common word with digits and symbols
// around it), not the address or a word tied to this site. The message is
// the Spanish text to show.
func CheckNewPassword(password, email string) error {
	p := NormalizePassword(password)
	weak := func(msg string) error { return domain.Invalid("weak_password", msg) }
	switch n := utf8.RuneCountInString(p); {
	case n < MinPasswordLength:
		return weak(fmt.Sprintf("La contraseña debe tener al menos %d caracteres.", MinPasswordLength))
	case n > MaxPasswordLength:
		return weak(fmt.Sprintf("La contraseña no puede superar los %d caracteres.", MaxPasswordLength))
	}
	lower := strings.ToLower(p)
	core := strings.TrimFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) })
	if isCommon(lower) || isCommon(core) {
		return weak("La contraseña es demasiado común: elija una que no aparezca en las listas de contraseñas filtradas.")
	}
	if local, _, _ := strings.Cut(domain.NormalizeEmail(email), "@"); utf8.RuneCountInString(local) >= 4 && strings.Contains(lower, local) {
		return weak("La contraseña no debe contener su correo.")
	}
	for _, w := range contextWords {
		if core == w || strings.Trim(core, "-_. ") == w {
			return weak(fmt.Sprintf("La contraseña es demasiado fácil de adivinar: no use palabras como «%s» solas.", w))
		}
	}
	return nil
}
