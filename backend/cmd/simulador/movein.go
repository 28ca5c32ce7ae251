package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/movein"
	"github.com/utpl/simulador/backend/internal/store/firestore"
)

// Moving in from the earlier Firebase app (docs/moving-in.md): adopt makes
// its Firestore project ready in place; users import-firebase brings its
// Authentication accounts with their passwords.

const adoptUsage = `Usage: simulador adopt --from firestore://PROJECT_ID [--dry-run]

Makes a project of the earlier Firebase app ready for this server, in place:
copies each group's estudiantes list into its member documents (the list stays
for the earlier app), writes the documents this server derives (userMails,
degreeNames, activeGroups, activeMembers), stores mails in lower case, gives
profiles and groups without createdAt their document's creation time, and loads
the demo case bank. Conflicts follow stated rules, each listed with its reason:
a tutor with several active groups keeps the newest (the others are finalized);
a student in several active groups stays in the newest; a mail in two profiles
and degree names that differ only in case or accents are left for you to fix.
Running it again writes only what changed (nothing, the second time).
FIRESTORE_EMULATOR_HOST selects the emulator.

Flags:
`

func adoptCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("adopt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, adoptUsage); fs.PrintDefaults() }
	from := fs.String("from", "", "the earlier app's project: firestore://PROJECT_ID")
	dryRun := fs.Bool("dry-run", false, "say what would be written, writing nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArguments("adopt", fs); err != nil {
		return err
	}
	project, ok := strings.CutPrefix(*from, "firestore://")
	if !ok || project == "" || strings.ContainsAny(project, "/?#") {
		fs.Usage()
		return fmt.Errorf("adopt: --from must be firestore://PROJECT_ID (got %q)", *from)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	octx, cancel := context.WithTimeout(ctx, storeStartTimeout)
	st, err := firestore.OpenForAdopt(octx, project)
	cancel()
	if err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	start := time.Now()
	rep, err := st.Adopt(ctx, *dryRun, log, start)
	st.Close()
	if err != nil {
		return fmt.Errorf("adopt: %w (run it again: it finishes what this run began)", err)
	}
	demo := "already loaded"
	if !*dryRun {
		// The server's own start: the seed degree unless the earlier app
		// has it, and the demo case bank, recorded in meta once loaded.
		octx, cancel := context.WithTimeout(ctx, storeStartTimeout)
		full, err := firestore.Open(octx, project)
		cancel()
		if err != nil {
			return fmt.Errorf("adopt: %w", err)
		}
		defer full.Close()
		res, err := catalog.NewService(full, false).ImportDemoBank(ctx)
		if err != nil {
			return fmt.Errorf("adopt: demo case bank: %w", err)
		}
		if res.Created > 0 || res.Updated > 0 {
			demo = fmt.Sprintf("%d cases loaded", res.Created+res.Updated)
		}
	} else {
		demo = "loaded on the real run, unless already there"
	}
	w := func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) }
	verb := "wrote"
	if *dryRun {
		verb = "would write"
	}
	w("Earlier app's project %s: %d profiles, %d degrees, %d groups (%d active after adoption), %d students listed.",
		project, rep.Users, rep.Degrees, rep.Groups, rep.ActiveGroups, rep.ListedStudents)
	w("  mails put in lower case         %6d", rep.MailsLowercased)
	w("  createdAt set (was missing)     %6d", rep.CreatedAtSet)
	w("  userMails created               %6d", rep.UserMailsCreated)
	w("  degreeNames created             %6d", rep.DegreeNamesCreated)
	w("  students copied from the lists  %6d", rep.StudentsCopied)
	w("  older active groups finalized   %6d", rep.GroupsFinalized)
	w("  activeGroups written            %6d", rep.ActiveGroupLocks)
	w("  activeMembers created           %6d", rep.ActiveMembers)
	w("  demo case bank                  %s", demo)
	if rep.Writes == 0 {
		w("Nothing to change: the project was already adopted (%s).", time.Since(start).Round(time.Millisecond))
	} else {
		w("%s %d documents (%s).", strings.ToUpper(verb[:1])+verb[1:], rep.Writes, time.Since(start).Round(time.Millisecond))
	}
	if len(rep.Left) > 0 {
		w("\n%d left as they are, with the reason:", len(rep.Left))
		for _, l := range rep.Left {
			w("  %s/%s: %s", l.Kind, l.ID, l.Reason)
		}
	}
	return nil
}

const importFirebaseUsage = `Usage: simulador users import-firebase FILE --salt-separator B64 --rounds N --mem-cost N
                                        [--hash-key-file F] [--dry-run]

Imports the accounts of a Firebase Authentication export (firebase auth:export
users.json --format=json) into the store DATABASE_URL names. Each account is
matched by uid to its profile, or gets a new one with role estudiante. Its
password hash is kept as Firebase made it and replaced by this server's at the
user's first sign-in, so users keep their passwords. Accounts without a password
(Microsoft sign-in only) get none; disabled accounts stay disabled. The whole
file is checked before anything is written. Running it again changes nothing.

The hash parameters are in the Firebase Console: Authentication > Users > ⋮ (above
the list) > Password hash parameters. The hash key (base64_signer_key) is a
secret: it is read from --hash-key-file or, without it, from standard input
(one line), never from the command line.

Flags:
`

func importFirebaseCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("users import-firebase", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, importFirebaseUsage); fs.PrintDefaults() }
	separator := fs.String("salt-separator", "", "base64_salt_separator of the project's password hash parameters")
	rounds := fs.Int("rounds", 0, "rounds of the project's password hash parameters (8)")
	memCost := fs.Int("mem-cost", 0, "mem_cost of the project's password hash parameters (14)")
	keyFile := fs.String("hash-key-file", "", "a file holding base64_signer_key (otherwise read from standard input)")
	dryRun := fs.Bool("dry-run", false, "check the file and say what would change, writing nothing")
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && (name == "hash-key" || name == "signer-key") {
			return errors.New("users import-firebase: --hash-key is not accepted: the hash key is a secret, read from --hash-key-file or standard input")
		}
	}
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if err := noArguments("users import-firebase", fs); err != nil {
		return err
	}
	if file == "" {
		fs.Usage()
		return errors.New("users import-firebase: the export FILE is required")
	}
	if *rounds == 0 || *memCost == 0 {
		return errors.New("users import-firebase: --rounds and --mem-cost are required (Authentication > Users > ⋮ > Password hash parameters)")
	}
	keySource := stdin
	if *keyFile != "" {
		f, err := os.Open(*keyFile)
		if err != nil {
			return fmt.Errorf("users import-firebase: --hash-key-file: %w", err)
		}
		defer f.Close()
		keySource = f
	}
	line, err := bufio.NewReader(io.LimitReader(keySource, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("users import-firebase: reading the hash key: %w", err)
	}
	key := strings.TrimSpace(line)
	if key == "" {
		return errors.New("users import-firebase: no hash key (base64_signer_key) on standard input or in --hash-key-file")
	}
	params, err := movein.DecodeParams(key, *separator, *rounds, *memCost)
	if err != nil {
		return fmt.Errorf("users import-firebase: %w", err)
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("users import-firebase: %w", err)
	}
	exp, err := movein.ReadAuthExport(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("users import-firebase: %s: %w; nothing was imported", file, err)
	}
	if err := movein.CheckExport(exp, params); err != nil {
		return fmt.Errorf("users import-firebase: %s: %w; nothing was imported", file, err)
	}
	a, err := newApp(ctx, stderr, false)
	if err != nil {
		return err
	}
	defer a.Close()
	start := time.Now()
	rep, err := movein.ImportFirebase(ctx, a.store, exp, params, *dryRun, a.log, start)
	if err != nil {
		var ue *domain.UserError
		if errors.As(err, &ue) {
			return err
		}
		return fmt.Errorf("users import-firebase: %w", err)
	}
	w := func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) }
	w("%d accounts in %s:", rep.Exported, file)
	w("  matched to a profile by uid     %6d", rep.Matched)
	w("  profiles created (estudiante)   %6d", rep.Created)
	w("  passwords imported              %6d", rep.Passwords)
	w("  passwords already imported      %6d", rep.Unchanged)
	w("  already with a password here    %6d", rep.KeptLocal)
	w("  without a password (Microsoft)  %6d", rep.MicrosoftOnly)
	w("  disabled (stay disabled)        %6d", rep.Disabled)
	w("  not imported                    %6d", len(rep.Left))
	if *dryRun {
		w("Dry run: nothing was written (%s).", time.Since(start).Round(time.Millisecond))
	} else {
		w("Done (%s).", time.Since(start).Round(time.Millisecond))
	}
	for _, l := range rep.Left {
		w("  %s <%s>: %s", l.UID, l.Email, l.Reason)
	}
	return nil
}
