# Oral exam simulator. `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

BIN        := bin/simulador
WEBUI_DIST := backend/internal/webui/dist
GO_FILES   := $(shell find backend -name '*.go' -not -path '*/node_modules/*') go.mod go.sum
WEB_FILES  := $(shell find frontend/src frontend/public -type f 2>/dev/null) frontend/index.html frontend/auth-popup.html frontend/vite.config.ts frontend/tsconfig.json frontend/package.json
CHROMIUM   ?= /usr/bin/chromium

export DATA_DIR ?= $(CURDIR)/data

.PHONY: help
help: ## List the targets
	@awk 'BEGIN {FS = ":.*##"} /^[a-zA-Z0-9_-]+:.*##/ {printf "  \033[1m%-12s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

node_modules/.package-lock.json: package.json package-lock.json frontend/package.json
	npm ci --no-audit --no-fund
	@touch $@

.PHONY: deps
deps: node_modules/.package-lock.json ## Install the npm dependencies (npm ci)

$(WEBUI_DIST)/index.html: node_modules/.package-lock.json $(WEB_FILES)
	npm --workspace frontend run build
	find $(WEBUI_DIST) -mindepth 1 -not -name .keep -delete
	cp -R frontend/dist/. $(WEBUI_DIST)/

.PHONY: web
web: $(WEBUI_DIST)/index.html ## Build the frontend into the Go embed directory

# The Dockerfile builds the server with the same command (a test in
# backend/internal/deploy compares them): static, no cgo, stripped.
$(BIN): $(WEBUI_DIST)/index.html $(GO_FILES)
	CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o $(BIN) ./backend/cmd/simulador

.PHONY: build
build: $(BIN) ## Build bin/simulador, one binary with the frontend embedded

.PHONY: run
run: build ## Build and serve at http://127.0.0.1:8080 (ADDR, PORT, DATA_DIR override)
	$(BIN) serve

# make dev: Vite's dev server (hot reload) on DEV_HOST:DEV_PORT, proxying /api
# to the Go server, built from source and started on DEV_API_ADDR with the same
# DATA_DIR as make run. Everything else (index.html, auth-popup.html, assets,
# public/) Vite serves itself. The server is built and run rather than started
# with go run, whose process would not pass a signal on to the server: when
# Vite stops (Ctrl-C, or an error), the trap stops the server too.
DEV_HOST     ?= 127.0.0.1
DEV_PORT     ?= 5173
DEV_API_ADDR ?= 127.0.0.1:8081
DEV_BIN      := bin/simulador-dev

.PHONY: dev
dev: deps ## Vite with hot reload at http://127.0.0.1:5173, /api proxied to the Go server on :8081; Ctrl-C stops both
	go build -o $(DEV_BIN) ./backend/cmd/simulador
	@ADDR=$(DEV_API_ADDR) $(DEV_BIN) serve & server=$$!; \
	trap 'kill $$server 2>/dev/null; wait $$server 2>/dev/null' EXIT; trap 'exit 130' INT TERM; \
	until curl -fs --max-time 2 -o /dev/null http://$(DEV_API_ADDR)/api/health; do \
		kill -0 $$server 2>/dev/null || { echo "make dev: the Go server did not start (see above)."; exit 1; }; sleep 0.2; done; \
	echo "make dev: open http://$(DEV_HOST):$(DEV_PORT)/ (Vite, hot reload); the API runs on $(DEV_API_ADDR)."; \
	SIMULADOR_API_URL=http://$(DEV_API_ADDR) npm --workspace frontend run dev -- --host $(DEV_HOST) --port $(DEV_PORT) --strictPort

# make test runs each step as its own make, in this order, stopping at the
# first failure, and prints each step's wall time (scripts/timed-steps.sh).
TEST_STEPS := lint check-deploy test-go test-web size e2e e2e-engines

.PHONY: test
test: ## Run every test (lint, check-deploy, test-go, test-web, size, e2e in Chromium, e2e-engines in Firefox and WebKit, in order), printing each step's wall time
	@MAKE="$(MAKE)" scripts/timed-steps.sh $(TEST_STEPS)

# The deployment files, checked without a cloud account: firebase.json is
# what the server's route table and security headers make it (rewrites
# cover every route, /lti too), it names the Firestore rules and indexes the
# emulator tests load, the Dockerfile builds as make build does and runs as
# non-root on PORT, and README's variables are the configuration's.
.PHONY: check-deploy
check-deploy: ## Check firebase.json, the Dockerfile and README's variables against the server (no cloud account needed)
	go run ./backend/cmd/firebase-config -check
	go test -count=1 ./backend/internal/deploy/

.PHONY: firebase-config
firebase-config: ## Write firebase.json from the route table and the security headers (INTRO_VIDEO_URL, MS_AUTHORITY change the CSP)
	go run ./backend/cmd/firebase-config

.PHONY: test-go
test-go: postgres ## Go unit, store contract (SQLite, PostgreSQL, Firestore emulator) and API tests
	scripts/with-postgres.sh scripts/with-firestore.sh go test -count=1 ./backend/...

# The store contract suite runs on a throwaway PostgreSQL server too; install
# Debian's when it is missing (root). Without it the suite runs on SQLite only.
# It also runs on Google's Cloud Firestore emulator when installed (never
# installed here: scripts/with-firestore.sh warns and the Firestore tests skip).
.PHONY: postgres
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "Installing Debian's postgresql (apt)…"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; } \
		|| echo "PostgreSQL could not be installed: the store contract suite runs on SQLite only."; }

.PHONY: test-web
test-web: deps ## Frontend unit tests (Vitest)
	npm --workspace frontend test

.PHONY: size
size: web ## Check the JavaScript budget of /inicio (100 kB gzip)
	node frontend/scripts/check-bundle-size.mjs

.PHONY: chromium
chromium:
	@command -v $(CHROMIUM) >/dev/null || { echo "Installing Debian's chromium (apt)…"; apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }

# fake Cloud Storage for the e2e "bucket" project and the upload benchmark
.PHONY: gcs-test-server
gcs-test-server:
	go build -o bin/gcs-test-server ./backend/cmd/gcs-test-server

# The cluster spec needs PostgreSQL and the Firestore emulator: Playwright
# runs under the scripts that start them (each shape is skipped, with a
# warning, when its server is missing).
.PHONY: e2e
e2e: build chromium gcs-test-server postgres ## End-to-end tests in Debian's Chromium (Playwright); the recording specs again with a bucket (fake Cloud Storage); two instances behind a proxy on PostgreSQL and on the Firestore emulator; sign-ins, a Simulacro, an LTI launch and the post-deploy checks behind a Firebase Hosting stand-in
	go build -o bin/oidc-test-issuer ./backend/cmd/oidc-test-issuer
	go build -o bin/lti-test-platform ./backend/cmd/lti-test-platform
	go build -o bin/hosting-test-proxy ./backend/cmd/hosting-test-proxy
	cd frontend && ../scripts/with-postgres.sh ../scripts/with-firestore.sh npx --yes playwright test

# The journeys in the other engines students use: Debian's Firefox ESR over
# WebDriver BiDi (puppeteer-core) and WebKitGTK's MiniBrowser under
# WebKitWebDriver and Xvfb, installed with apt when missing; an engine apt
# cannot install is skipped with a boxed warning (scripts/e2e-engines.sh).
.PHONY: e2e-engines
e2e-engines: build chromium ## Journeys in Firefox ESR (WebDriver BiDi) and WebKitGTK (WebKitWebDriver, Xvfb): sign-in, a recorded rehearsal, a reload, grading and playback across engines, header and dialogs, the phone status bar
	scripts/e2e-engines.sh

# The end-to-end specs where time matters (recordings, phases, reconnects,
# popups), each run SOAK_REPEAT times (default 5) while stress-ng keeps every
# core busy; it prints per-test pass and fail counts and fails naming every
# test that failed even once (scripts/soak.sh: SOAK_SPECS, SOAK_PROJECTS,
# SOAK_HOG_CPUS). Not part of make test: run it after touching a timing-
# sensitive spec or the recording code.
.PHONY: test-soak
test-soak: build chromium gcs-test-server postgres ## Run the timing-sensitive e2e specs SOAK_REPEAT times (default 5) under a CPU hog on every core; names each flaky test
	go build -o bin/oidc-test-issuer ./backend/cmd/oidc-test-issuer
	go build -o bin/lti-test-platform ./backend/cmd/lti-test-platform
	scripts/soak.sh

# The upload load benchmark: 200 concurrent recordings; a short run by default,
# BENCH_UPLOAD_DURATION=10m for the full budget run (see bench/upload).
# BENCH_UPLOAD_MEDIA picks where the server keeps recordings: directory
# (DATA_DIR/media) or bucket (fake Cloud Storage, bin/gcs-test-server).
# The third run (-cluster) puts two servers on one PostgreSQL database and
# the fake bucket behind a round-robin proxy, as Cloud Run runs instances.
BENCH_UPLOAD_DURATION ?= 1m
BENCH_UPLOAD_MEDIA ?= directory
# The server's data goes under .bench, not /tmp: on ext4, creating a file in a
# block group where many files were just deleted (other processes' churn in
# /tmp) costs about 0.5 ms of kernel time, where a dedicated DATA_DIR costs 10 µs.
UPLOAD_BENCH = bin/upload-bench -bin $(BIN) -gcs-bin bin/gcs-test-server -duration $(BENCH_UPLOAD_DURATION) -tmp .bench

# The load benchmarks live in their own Go module (bench/go.mod): they start
# bin/simulador as a process and talk to it over HTTP, so ./backend/... holds
# only the product and its tests (docs/decisions: benchmarks in the repo).
.PHONY: upload-bench
upload-bench:
	cd bench && go build -o ../bin/upload-bench ./upload

.PHONY: bench
bench: build chromium gcs-test-server upload-bench postgres ## Benchmarks and budgets: Go benchmarks (the report's on the Firestore emulator too), Lighthouse, upload load with recordings in a directory, in a bucket, and on two servers behind a proxy (BENCH_UPLOAD_DURATION=10m for the full run)
	@mkdir -p .bench
	set -o pipefail; scripts/with-firestore.sh go test -run '^$$' -bench . -benchmem ./backend/... | tee .bench/go-bench.txt
	scripts/bench-budgets.sh .bench/go-bench.txt
	scripts/lighthouse.sh
	$(UPLOAD_BENCH) -media directory -out .bench/upload-directory-$(BENCH_UPLOAD_DURATION).json
	$(UPLOAD_BENCH) -media bucket -out .bench/upload-bucket-$(BENCH_UPLOAD_DURATION).json
	scripts/with-postgres.sh $(UPLOAD_BENCH) -cluster -out .bench/upload-cluster-$(BENCH_UPLOAD_DURATION).json

.PHONY: bench-upload
bench-upload: build gcs-test-server upload-bench ## Only the upload load benchmark (200 recorders; BENCH_UPLOAD_DURATION, default 1m; BENCH_UPLOAD_MEDIA=bucket)
	$(UPLOAD_BENCH) -media $(BENCH_UPLOAD_MEDIA) -out .bench/upload-$(BENCH_UPLOAD_MEDIA)-$(BENCH_UPLOAD_DURATION).json

# The exam-day benchmark (bench/examday, docs/performance.md):
# 1,000 students rehearse at once on SQLite — sign-ins spread over 60 s
# (ramp), then all within 10 s (storm) — then the per-request comparison
# with a PocketBase peer (bench/pbpeer, its own Go module, built here and
# never by make test) and GET /api/session under wrk, and the tutor's report
# benchmarks. Each step checks its budgets; a failed one names what it
# missed. BENCH_EXAMDAY_STUDENTS sets the size; BENCH_EXAMDAY_ARGS adds
# flags (e.g. -signin microsoft, -addresses 1); the summaries go to
# .bench/examday-*.json. bench-examday-postgres runs the storm on a
# throwaway PostgreSQL (PGPORT_TEST, default: a free port);
# bench-examday-cluster on two instances of it behind a proxy.
BENCH_EXAMDAY_STUDENTS ?= 1000
BENCH_EXAMDAY_ARGS ?=
EXAMDAY_BENCH = bin/examday-bench -bin $(BIN) -issuer-bin bin/oidc-test-issuer -gcs-bin bin/gcs-test-server -tmp .bench $(BENCH_EXAMDAY_ARGS)

.PHONY: examday-tools
examday-tools: build gcs-test-server
	@command -v wrk >/dev/null || { echo "Installing wrk (apt)…"; apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
	cd bench && go build -o ../bin/examday-bench ./examday
	go build -o bin/oidc-test-issuer ./backend/cmd/oidc-test-issuer
	cd bench/pbpeer && go build -o ../../bin/pbpeer .
	@mkdir -p .bench

.PHONY: bench-examday
bench-examday: examday-tools ## Exam-day benchmark with budgets: 1,000 students ramp and storm (SQLite), PocketBase and wrk comparisons, report benchmarks
	status=0; \
	$(EXAMDAY_BENCH) -mode ramp -students $(BENCH_EXAMDAY_STUDENTS) || status=1; \
	$(EXAMDAY_BENCH) -mode storm -students $(BENCH_EXAMDAY_STUDENTS) || status=1; \
	$(EXAMDAY_BENCH) -mode compare -peer-bin bin/pbpeer || status=1; \
	set -o pipefail; scripts/with-firestore.sh go test -run '^$$' -bench 'GroupReport' -benchmem ./backend/internal/httpapi/ | tee .bench/report-bench.txt || status=1; \
	scripts/bench-budgets.sh .bench/report-bench.txt GroupReport || status=1; \
	exit $$status

.PHONY: bench-examday-postgres
bench-examday-postgres: examday-tools postgres ## The exam-day storm on a throwaway PostgreSQL
	scripts/with-postgres.sh $(EXAMDAY_BENCH) -mode storm -target postgres -students $(BENCH_EXAMDAY_STUDENTS)

.PHONY: bench-examday-cluster
bench-examday-cluster: examday-tools postgres ## The exam-day storm on two instances (PostgreSQL, a fake bucket) behind a round-robin proxy
	scripts/with-postgres.sh $(EXAMDAY_BENCH) -mode storm -target cluster -students $(BENCH_EXAMDAY_STUDENTS)

.PHONY: fmt
fmt: deps ## Format the code in place: gofmt -w on backend/, Prettier on frontend/
	gofmt -w backend bench
	npm --workspace frontend run format

.PHONY: lint
lint: deps ## No build output tracked (files over 1 MB, binaries), migration numbers, gofmt, golangci-lint (go vet, staticcheck and more: .golangci.yml), TypeScript type check, ESLint (zero warnings), Prettier check, API shapes (make api-shapes)
	scripts/check-tracked-files.sh
	scripts/check-migrations.sh
	@test -z "$$(gofmt -l backend bench)" || { echo "gofmt needed:"; gofmt -l backend bench; exit 1; }
	scripts/golangci-lint.sh run ./backend/...
	LINT_MODULE=bench scripts/golangci-lint.sh run ./...
	npm --workspace frontend run typecheck
	npm --workspace frontend run lint
	npm --workspace frontend run format:check
	$(MAKE) --no-print-directory api-shapes

# The Go DTOs and the TypeScript types in frontend/src/types/api.ts agree:
# the files backend/cmd/apitypes writes are current (its Go test), and each
# type has the fields, optional marks and nested shapes of its DTO (Vitest).
.PHONY: api-shapes
api-shapes: deps ## Check that the API's Go DTOs and TypeScript types agree (regenerate with go run ./backend/cmd/apitypes)
	go test -count=1 ./backend/cmd/apitypes/
	npm --workspace frontend test -- src/types/api-fields.test.ts

.PHONY: clean
clean: ## Remove build output (keeps ./data)
	rm -rf bin frontend/dist frontend/test-results frontend/playwright-report
	find $(WEBUI_DIST) -mindepth 1 -not -name .keep -delete
