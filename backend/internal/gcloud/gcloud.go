// Package gcloud connects the server to Google Cloud (Firestore and Cloud
// Storage) through the Firebase Admin SDK, the owner's platform library.
//
// Credentials come from Application Default Credentials: the service
// account of the Cloud Run service in production, `gcloud auth
// application-default login` on a workstation. Against the emulators
// (FIRESTORE_EMULATOR_HOST, STORAGE_EMULATOR_HOST) no credentials are used.
package gcloud

import (
	"context"
	"fmt"
	"os"

	firebase "firebase.google.com/go/v4"
	"google.golang.org/api/option"
)

// Emulated reports whether the Google Cloud clients are pointed at local
// emulators, in which case they must not look for credentials.
func Emulated() bool {
	return os.Getenv("FIRESTORE_EMULATOR_HOST") != "" || os.Getenv("STORAGE_EMULATOR_HOST") != "" ||
		os.Getenv("FIREBASE_STORAGE_EMULATOR_HOST") != ""
}

// NewApp returns a Firebase app for projectID (which may be empty when only
// Cloud Storage is used: a bucket is named globally).
func NewApp(ctx context.Context, projectID string) (*firebase.App, error) {
	var opts []option.ClientOption
	if Emulated() {
		opts = append(opts, option.WithoutAuthentication())
	}
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: projectID}, opts...)
	if err != nil {
		return nil, fmt.Errorf("firebase app: %w", err)
	}
	return app, nil
}
