// Command oidc-test-issuer runs the in-process test issuer of package
// oidctest as a process, for the browser tests (Playwright), which need an
// HTTPS OpenID Connect issuer shaped like Microsoft Entra ID that MSAL.js can
// talk to.
//
// FOR TESTS ONLY. It approves every sign-in as whichever user the test
// names; never point a real deployment at it.
//
// It prints one JSON line on stdout once it is listening,
//
//	{"url":"https://127.0.0.1:PORT","authority":"https://127.0.0.1:PORT/<tenant>",...}
//
// serves the control API under /_control/ (POST /_control/next with a
// oidctest.SignIn as JSON sets the next sign-in's user and faults), and exits
// on SIGTERM or SIGINT.
//
//	oidc-test-issuer -tenant T -client-id C -ca-out ca.pem
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/utpl/simulador/backend/internal/testsupport/oidctest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "oidc-test-issuer:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	tenant := flag.String("tenant", oidctest.DefaultTenantID, "tenant id (the only one served)")
	clientID := flag.String("client-id", oidctest.DefaultClientID, "application (client) id")
	caOut := flag.String("ca-out", "", "write the generated CA certificate (PEM) to this file")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	iss, err := oidctest.Start(oidctest.Options{Addr: *addr, TenantID: *tenant, ClientID: *clientID, Control: true})
	if err != nil {
		return err
	}
	defer iss.Close()
	if *caOut != "" {
		if err := iss.WriteCAFile(*caOut); err != nil {
			return fmt.Errorf("write CA: %w", err)
		}
	}
	type ready struct {
		oidctest.Info
		CAFile string `json:"caFile,omitempty"`
	}
	if err := json.NewEncoder(os.Stdout).Encode(ready{Info: iss.Info(), CAFile: *caOut}); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}
