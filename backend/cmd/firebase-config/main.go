// Command firebase-config writes firebase.json from the server's own
// definitions: Hosting forwards every path prefix of the route table (and
// /lti) to the Cloud Run service, and sends the server's security headers
// with the pages it serves itself. With -check it writes nothing and fails
// when the file differs. `make firebase-config` runs it; run it again
// with INTRO_VIDEO_URL or MS_AUTHORITY set when the deployment uses them
// (they change the Content-Security-Policy).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/utpl/simulador/backend/internal/deploy"
)

func main() {
	out := flag.String("o", "firebase.json", "the file to write")
	check := flag.Bool("check", false, "do not write; fail when the file differs from what would be written")
	service := flag.String("service", deploy.DefaultService.ID, "the Cloud Run service name")
	region := flag.String("region", deploy.DefaultService.Region, "the Cloud Run service's region")
	flag.Parse()
	if err := run(*out, *check, deploy.Service{ID: *service, Region: *region}); err != nil {
		fmt.Fprintln(os.Stderr, "firebase-config:", err)
		os.Exit(1)
	}
}

func run(out string, check bool, svc deploy.Service) error {
	cfg, err := deploy.ReferenceConfig(os.LookupEnv)
	if err != nil {
		return err
	}
	want, err := deploy.Firebase(svc, cfg)
	if err != nil {
		return err
	}
	if check {
		have, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		if !bytes.Equal(have, want) {
			return fmt.Errorf("%s is not what the server's route table and headers make it: run make firebase-config", out)
		}
		return nil
	}
	return os.WriteFile(out, want, 0o644)
}
