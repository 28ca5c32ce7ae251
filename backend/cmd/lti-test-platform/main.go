// Command lti-test-platform runs the fake LTI 1.3 platform of package
// ltitest as a process, for the browser tests (Playwright): a course page
// that embeds the simulator in an iframe or opens it in a new tab, the
// platform's authorization, token, roster (NRPS), gradebook (AGS) and deep
// linking endpoints, with real signed tokens.
//
// FOR TESTS ONLY. It approves every launch as whichever user the test
// names; never register it in a real deployment.
//
// It prints one JSON line on stdout once it is listening,
//
//	{"url":"http://localhost:PORT","issuer":"http://localhost:PORT","clientId":"…","deploymentId":"…","authUrl":…,"tokenUrl":…,"jwksUrl":…}
//
// serves the control API under /_control/ (users, courses, faults of the
// next launch, received scores and deep links; see ltitest.Platform's
// control), and exits on SIGTERM or SIGINT.
//
//	lti-test-platform -tool http://127.0.0.1:8080 [-addr 127.0.0.1:0] [-host localhost]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/utpl/simulador/backend/internal/testsupport/ltitest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "lti-test-platform:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	host := flag.String("host", "localhost", "host name in the platform's URLs (localhost is cross-site to a tool on 127.0.0.1)")
	tool := flag.String("tool", "", "the tool's base URL, e.g. http://127.0.0.1:8080 (required)")
	clientID := flag.String("client-id", ltitest.DefaultClientID, "the client id the platform gives the tool")
	deployment := flag.String("deployment-id", ltitest.DefaultDeploymentID, "the deployment id of the tool's installation")
	pageSize := flag.Int("member-page-size", 2, "members per roster page (small, so paging is exercised)")
	flag.Parse()
	if *tool == "" {
		return errors.New("-tool is required")
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	p, err := ltitest.Start(ltitest.Options{Addr: *addr, Host: *host, ToolURL: *tool, ClientID: *clientID, DeploymentID: *deployment,
		MemberPageSize: *pageSize})
	if err != nil {
		return err
	}
	defer p.Close()
	if err := json.NewEncoder(os.Stdout).Encode(p.Info()); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}
