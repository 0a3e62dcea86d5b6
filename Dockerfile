# syntax=docker/dockerfile:1
# The Assetloom reference server as users deploy Node services: the image installs the packed npm
# tarballs of the server and its workspace packages (the same tarballs the ecosystem test installs
# into an empty folder), production dependencies only, and runs the built JavaScript with `node`
# as the unprivileged `node` user (uid 1000). One image, two commands: the API (default) and the worker.
#   docker build -t assetloom-server .
#   docker run -e JWT_SECRET=… -e MONGODB_URI=… -p 8080:8080 assetloom-server
#   docker run -e JWT_SECRET=… -e MONGODB_URI=… assetloom-server node node_modules/@assetloom/server/bin/assetloom-worker.js
# Settings: docs/deployment.md.

ARG NODE_IMAGE=node:20.19-bookworm-slim

# --- build: install the workspace, pack the packages the server needs (each prepack builds it) ---
FROM ${NODE_IMAGE} AS build
WORKDIR /src
RUN npm install --global --no-audit --no-fund pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile
RUN mkdir /tarballs \
 && for dir in openapi packages/drawings packages/pipeline packages/generator packages/core reference-server; do \
      pnpm --dir "$dir" pack --pack-destination /tarballs || exit 1; \
    done

# --- runtime: the tarballs installed into an empty folder, with the server's optional peers that
# the compose deployment uses (MONGODB_URI, STORAGE_DRIVER=s3): mongodb and the AWS SDK, and sharp for
# JPEG, WebP and GIF uploads (UPLOAD_DECODER; an optional peer since issue #41) ---
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=build /tarballs /tmp/tarballs
RUN npm install --omit=dev --no-audit --no-fund /tmp/tarballs/*.tgz \
      mongodb@^6.20.0 @aws-sdk/client-s3@^3.1162.0 @aws-sdk/s3-request-presigner@^3.1162.0 sharp@0.35.5 \
 && rm -rf /tmp/tarballs \
 && npm cache clean --force \
 && mkdir -p /data \
 && chown 1000:1000 /data
# The image's unprivileged `node` user (uid/gid 1000), numeric so any runtime can check it is not root.
USER 1000:1000
VOLUME ["/data"]
EXPOSE 8080 9464
# Liveness: /api/v1/health (readiness, for a load balancer, is /api/v1/ready). Node's own fetch: no curl in the image.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "node_modules/@assetloom/server/bin/assetloom-server.js"]
