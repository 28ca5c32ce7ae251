package auth

import (
	"encoding/base64"
	"strings"
	"testing"
)

// The sample project of the firebase/scrypt repository (its README): its
// password hash parameters and the exported user1@test.com.
var firebaseSample = struct {
	signerKey, separator, salt, password, hash string
	rounds, memCost                            int
}{
	signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
	separator: "Bw==",
	salt:      "42xEC+ixf3L2lw==",
	password:  "user1password",
	hash:      "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
	rounds:    8,
	memCost:   14,
}

func sampleParams(t *testing.T) FirebaseScryptParams {
	t.Helper()
	key, err1 := base64.StdEncoding.DecodeString(firebaseSample.signerKey)
	sep, err2 := base64.StdEncoding.DecodeString(firebaseSample.separator)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return FirebaseScryptParams{SignerKey: key, SaltSeparator: sep, Rounds: firebaseSample.rounds, MemCost: firebaseSample.memCost}
}

func TestFirebaseScryptMatchesThePublishedVector(t *testing.T) {
	p := sampleParams(t)
	salt, _ := base64.StdEncoding.DecodeString(firebaseSample.salt)
	got, err := FirebaseScryptHash(p, salt, firebaseSample.password)
	if err != nil {
		t.Fatal(err)
	}
	if b64 := base64.StdEncoding.EncodeToString(got); b64 != firebaseSample.hash {
		t.Fatalf("hash = %s, want %s", b64, firebaseSample.hash)
	}
}

func TestFirebaseCredentialVerifies(t *testing.T) {
	p := sampleParams(t)
	salt, _ := base64.StdEncoding.DecodeString(firebaseSample.salt)
	want, _ := base64.StdEncoding.DecodeString(firebaseSample.hash)
	cred := FirebaseCredential(p, salt, want)
	if !IsFirebaseCredential(cred) || IsDisabledCredential(cred) {
		t.Fatalf("credential %q not recognised", cred)
	}
	for _, c := range []struct {
		password string
		ok       bool
	}{{firebaseSample.password, true}, {"user1Password", false}, {"", false}, {firebaseSample.password + " ", false}} {
		ok, err := verifyFirebaseScrypt(cred, c.password)
		if err != nil || ok != c.ok {
			t.Errorf("verify(%q) = %v, %v; want %v", c.password, ok, err, c.ok)
		}
	}
	// Wrong parameters (another project's separator or rounds) never match.
	other := p
	other.SaltSeparator = []byte{8}
	if ok, _ := verifyFirebaseScrypt(FirebaseCredential(other, salt, want), firebaseSample.password); ok {
		t.Error("a credential with another salt separator matched")
	}
	other = p
	other.Rounds = 7
	if ok, _ := verifyFirebaseScrypt(FirebaseCredential(other, salt, want), firebaseSample.password); ok {
		t.Error("a credential with other rounds matched")
	}
	for _, bad := range []string{"$firebase-scrypt$", "$firebase-scrypt$r=8,m=14$a$b$c", "$firebase-scrypt$r=9,m=14$Bw$AA$AA$AA",
		strings.Replace(cred, "r=8,m=14", "r=8,m=99", 1), cred[:len(cred)-1] + "!"} {
		if _, err := verifyFirebaseScrypt(bad, firebaseSample.password); err == nil {
			t.Errorf("malformed credential %q accepted", bad)
		}
	}
}

func TestFirebaseParamsValidate(t *testing.T) {
	p := sampleParams(t)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []FirebaseScryptParams{{Rounds: 8, MemCost: 14}, {SignerKey: p.SignerKey, Rounds: 0, MemCost: 14},
		{SignerKey: p.SignerKey, Rounds: 8, MemCost: 15}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
