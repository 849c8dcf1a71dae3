# One image per binary: docker build --build-arg CMD=./services/cmd/gateway -t ghcr.io/siteplane/gateway:dev .
# hack/images.sh builds all of them. The result is a static binary on distroless,
# running as a non-root user with nothing else in the image, so the operator's
# restricted security context (read-only root, no capabilities) just works.
# The admin bundle the gateway embeds (docs/admin.md): the pinned npm
# packages and esbuild, as hack/admin.sh builds it.
FROM node:20-bookworm-slim AS admin
WORKDIR /src/admin
COPY admin/package.json admin/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund --loglevel=error
COPY admin/ ./
RUN node build.mjs /out/adminui

FROM golang:1.26 AS build
WORKDIR /src
COPY . .
COPY --from=admin /out/adminui/ services/internal/gateway/adminui/
ARG CMD=./services/cmd/gateway
# VERSION stamps main.version where a binary has one (the operator's default image tag).
ARG VERSION=dev
RUN --mount=type=cache,target=/root/.cache/go-build --mount=type=cache,target=/go/pkg/mod \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION}" -o /out/app "$CMD"

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/app /app
USER 65532:65532
EXPOSE 8080 9090
ENTRYPOINT ["/app"]
