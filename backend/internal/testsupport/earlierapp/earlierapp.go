// Package earlierapp is a project of the product's earlier Firebase app,
// as that app wrote it: Firestore documents (users keyed by the
// Authentication uid with no createdAt, degree, groupStudents with the
// estudiantes list of {email, attempts}, auto-like IDs, none of this
// server's documents) and the project's Authentication export
// (auth-export.json, `firebase auth:export` JSON) whose password hashes
// were made with Firebase's algorithm from the passwords below. It holds
// the odd cases moving in must handle: a mail in capitals, a tutor with
// two active groups, a student in two tutors' active groups, degree names
// that differ only in case and accents, a mail in two profiles, a disabled
// account, Microsoft-only accounts, an account with no profile yet.
package earlierapp

import (
	"context"
	_ "embed"
	"encoding/base64"
	"fmt"

	"cloud.google.com/go/firestore"

	"github.com/utpl/simulador/backend/internal/auth"
)

// AuthExport is the Authentication export (auth-export.json).
//
//go:embed auth-export.json
var AuthExport []byte

// The project's password hash parameters: those of the sample project the
// firebase/scrypt repository publishes (so its published user is one of
// ours, with its published hash).
const (
	SignerKey     = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
	SaltSeparator = "Bw=="
	Rounds        = 8
	MemCost       = 14
)

// Params are the parameters decoded.
func Params() auth.FirebaseScryptParams {
	key, _ := base64.StdEncoding.DecodeString(SignerKey)
	sep, _ := base64.StdEncoding.DecodeString(SaltSeparator)
	return auth.FirebaseScryptParams{SignerKey: key, SaltSeparator: sep, Rounds: Rounds, MemCost: MemCost}
}

// Account is one person of the fixture.
type Account struct {
	UID, Mail, Name, Role string
	// Password is "" for a Microsoft-only account.
	Password  string
	Microsoft bool
	Disabled  bool
	// Profile: the earlier app wrote a users document (it does on the
	// first sign-in); false for an account that never opened the app.
	Profile bool
	// ProfileMail is the mail as the profile has it, when it differs in
	// case from the account's.
	ProfileMail string
	Salt        string // base64, as exported
}

// The accounts. Their mails are @utpl.edu.ec except the published sample.
var (
	TutorUno   = Account{UID: "Hq2mTutorUno0000000000000001", Mail: "docente.uno@utpl.edu.ec", ProfileMail: "Docente.Uno@UTPL.edu.ec", Name: "María Docente Uno", Role: "tutor", Password: "Clave-Tutor-Uno-2024", Profile: true, Salt: "c2FsdFR1dG9yVW5v"}
	TutorDos   = Account{UID: "Hq2mTutorDos0000000000000002", Mail: "docente.dos@utpl.edu.ec", Name: "Pedro Docente Dos", Role: "tutor", Microsoft: true, Profile: true}
	Ana        = Account{UID: "Kx7pEstudianteAna00000000001", Mail: "ana.alumna@utpl.edu.ec", Name: "Ana Alumna Pérez", Role: "estudiante", Password: "Ana-Clave-Anterior-1", Profile: true, Salt: "c2FsdEFuYUFsdW1uYQ=="}
	Bruno      = Account{UID: "Kx7pEstudianteBruno000000002", Mail: "bruno.microsoft@utpl.edu.ec", Name: "Bruno Microsoft Ruiz", Role: "estudiante", Microsoft: true, Profile: true}
	Carla      = Account{UID: "Kx7pEstudianteCarla000000003", Mail: "carla.dosgrupos@utpl.edu.ec", ProfileMail: "CARLA.DOSGRUPOS@utpl.edu.ec", Name: "Carla Dos Grupos", Role: "estudiante", Password: "Carla-Clave-Anterior-3", Profile: true, Salt: "c2FsdENhcmxh"}
	Diego      = Account{UID: "Kx7pEstudianteDiego000000004", Mail: "diego.deshabilitado@utpl.edu.ec", Name: "Diego Deshabilitado", Role: "estudiante", Password: "Diego-Clave-Anterior-4", Disabled: true, Profile: true, Salt: "c2FsdERpZWdv"}
	Elena      = Account{UID: "Kx7pEstudianteElena000000005", Mail: "elena.finalizado@utpl.edu.ec", Name: "Elena Grupo Finalizado", Role: "estudiante", Password: "Elena-Clave-Anterior-5", Profile: true, Salt: "c2FsdEVsZW5h"}
	Sample     = Account{UID: "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2", Mail: "user1@test.com", Name: "Test User 1", Role: "estudiante", Password: "user1password", Profile: true, Salt: "42xEC+ixf3L2lw=="}
	Nuevo      = Account{UID: "Kx7pEstudianteNuevo000000006", Mail: "nuevo.sinperfil@utpl.edu.ec", Name: "Nuevo Sin Perfil", Role: "estudiante", Password: "Nuevo-Clave-Anterior-6", Salt: "c2FsdE51ZXZv"}
	Accounts   = []Account{TutorUno, TutorDos, Ana, Bruno, Carla, Diego, Elena, Sample, Nuevo}
	RepeatedA  = "Rp1RepetidoA0000000000000001" // two profiles with one mail (no Auth account: the earlier app's data only)
	RepeatedB  = "Rp1RepetidoB0000000000000002"
	RepeatMail = "repetido@utpl.edu.ec"
)

// Degree IDs: Derecho, and one degree written twice in different case
// and accents.
const (
	DegreeDerecho     = "Dg9DerechoAutoId00001"
	DegreePsico       = "Dg9PsicoAutoId0000002"
	DegreePsicoDouble = "Dg9psicoAutoId0000003"
)

// Group IDs, in the order they were created.
const (
	GroupFinished = "Gr5FinalizadoUno00001" // TutorUno, finalizado: Elena
	GroupUnoOld   = "Gr5ActivoUnoViejo0002" // TutorUno, activo, older: Ana
	GroupUnoNew   = "Gr5ActivoUnoNuevo0003" // TutorUno, activo, newer: Ana, Bruno, Carla
	GroupDos      = "Gr5ActivoDos000000004" // TutorDos, activo, newest: Carla, Diego (degree spelt twice)
)

// Write stores the project's documents, one at a time in creation order
// (the earlier app's groups have no createdAt: their order is the
// documents' creation times).
func Write(ctx context.Context, c *firestore.Client) error {
	set := func(coll, id string, data map[string]any) error {
		if _, err := c.Collection(coll).Doc(id).Set(ctx, data); err != nil {
			return fmt.Errorf("%s/%s: %w", coll, id, err)
		}
		return nil
	}
	for id, name := range map[string]string{DegreeDerecho: "Derecho", DegreePsico: "Psicología Clínica", DegreePsicoDouble: "psicologia clinica"} {
		if err := set("degree", id, map[string]any{"id": id, "nombre": name}); err != nil {
			return err
		}
	}
	for _, a := range Accounts {
		if !a.Profile {
			continue
		}
		mail := a.Mail
		if a.ProfileMail != "" {
			mail = a.ProfileMail
		}
		given, surname := splitName(a.Name)
		if err := set("users", a.UID, map[string]any{"id": a.UID, "mail": mail, "displayName": a.Name, "givenName": given,
			"surname": surname, "photo_url": "", "role": a.Role}); err != nil {
			return err
		}
	}
	for _, id := range []string{RepeatedA, RepeatedB} {
		mail := RepeatMail
		if id == RepeatedB {
			mail = "Repetido@UTPL.edu.ec"
		}
		if err := set("users", id, map[string]any{"id": id, "mail": mail, "displayName": "Perfil Repetido", "givenName": "Perfil",
			"surname": "Repetido", "photo_url": "", "role": "estudiante"}); err != nil {
			return err
		}
	}
	student := func(a Account) map[string]any {
		mail := a.Mail
		if a.ProfileMail != "" {
			mail = a.ProfileMail
		}
		return map[string]any{"email": mail, "attempts": []any{}}
	}
	group := func(id, tutor, degree, status string, students ...Account) error {
		list := make([]any, len(students))
		for i, s := range students {
			list[i] = student(s)
		}
		err := set("groupStudents", id, map[string]any{"id": id, "carrera": degree, "departamento": "Ciencias Jurídicas",
			"facultad": "Ciencias Sociales, Educación y Humanidades", "modalidad": "Abierta y a Distancia",
			"docente": map[string]any{"email": tutor}, "estudiantes": list, "status": status})
		return err
	}
	if err := group(GroupFinished, TutorUno.ProfileMail, DegreeDerecho, "finalizado", Elena); err != nil {
		return err
	}
	if err := group(GroupUnoOld, TutorUno.ProfileMail, DegreeDerecho, "activo", Ana); err != nil {
		return err
	}
	if err := group(GroupUnoNew, TutorUno.ProfileMail, DegreeDerecho, "activo", Ana, Bruno, Carla); err != nil {
		return err
	}
	return group(GroupDos, TutorDos.Mail, DegreePsicoDouble, "activo", Carla, Diego)
}

func splitName(name string) (string, string) {
	for i := range name {
		if name[i] == ' ' {
			return name[:i], name[i+1:]
		}
	}
	return name, ""
}
