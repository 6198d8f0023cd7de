# The lendcheck reference sandbox as a container: `docker build -t lendcheck-sandbox .`
# then `docker run -p 127.0.0.1:8080:8080 lendcheck-sandbox`. docker-compose.yml uses it too.
# Where no registry is reachable, scripts/setup-podman.sh builds the base image locally.

# Stage 1: compile to dist/ (needs the dev dependencies: typescript).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: nothing native is needed to compile, and `prepare` would look for k6.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# Stage 2: the compiled package with its runtime dependencies only.
FROM node:20-bookworm-slim
WORKDIR /lendcheck
ENV NODE_ENV=production
# Install scripts are skipped (testcontainers' optional native helpers are not needed in
# here); the one native module, better-sqlite3, is then built on its own (prebuilt binary,
# else from source with the toolchain removed afterwards).
COPY package.json package-lock.json ./
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 \
 && apt-get purge -y python3 make g++ && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* /root/.npm /root/.cache
COPY --from=build /src/dist ./dist

# Inside a container the sandbox must listen beyond loopback to be reachable at all;
# publish the port to 127.0.0.1 on the host (see docker-compose.yml). The sandbox reads its
# address, port and clock from these variables when no flag is given, so `docker run -e`
# steers them: `gate --target-image` sets the host to 127.0.0.1 (it runs the container on the
# host's network) and, with --time-scale, LENDCHECK_TIME_SCALE.
ENV LENDCHECK_SANDBOX_HOST=0.0.0.0 LENDCHECK_SANDBOX_PORT=8080 LENDCHECK_TIME_SCALE=1
EXPOSE 8080
USER node
HEALTHCHECK --interval=5s --timeout=3s --retries=10 CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.LENDCHECK_SANDBOX_PORT+'/v1/markets').then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/cli/bin.js"]
CMD ["sandbox", "--db", ":memory:"]
