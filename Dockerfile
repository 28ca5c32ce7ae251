# Multi-stage build of the single server binary with the frontend embedded,
# built with make build's command (backend/internal/deploy checks it). Cloud
# Run sets PORT; several instances share Firestore or PostgreSQL
# (DATABASE_URL) and a bucket (MEDIA_BUCKET); DATA_DIR (a volume) suits one
# instance. README, "Deploy to Firebase Hosting and Cloud Run".

FROM node:20-bookworm-slim AS web
WORKDIR /src
COPY package.json package-lock.json ./
COPY frontend/package.json frontend/
RUN npm ci --no-audit --no-fund
COPY frontend/ frontend/
RUN npm --workspace frontend run build

FROM golang:1.26-bookworm AS server
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY backend/ backend/
COPY --from=web /src/frontend/dist/ backend/internal/webui/dist/
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/simulador ./backend/cmd/simulador

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=server /out/simulador /simulador
ENV DATA_DIR=/data LOG_FORMAT=json TRUST_PROXY=true
VOLUME ["/data"]
EXPOSE 8080
USER nonroot
ENTRYPOINT ["/simulador", "serve"]
