# The lendcheck reference sandbox as a container: `docker build -t lendcheck-sandbox .`
# then `docker run -p 8080:8080 lendcheck-sandbox`. docker-compose.yml uses it too.
FROM node:20-bookworm-slim

WORKDIR /lendcheck
ENV NODE_ENV=production

# Runtime dependencies only. Install scripts are skipped so the postinstall does not try
# to build k6 with Go (the k6 service of docker-compose uses the official image); the one
# native module, better-sqlite3, is then rebuilt on its own (prebuilt binary, else source).
COPY package.json package-lock.json ./
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 \
 && apt-get purge -y python3 make g++ && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* /root/.npm

COPY . .

# Inside a container the sandbox must listen beyond loopback to be reachable at all;
# publish the port to 127.0.0.1 on the host (see docker-compose.yml).
EXPOSE 8080
USER node
HEALTHCHECK --interval=5s --timeout=3s --retries=10 CMD ["node", "-e", "fetch('http://127.0.0.1:8080/v1/markets').then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "cli/bin.js"]
CMD ["sandbox", "--host", "0.0.0.0", "--port", "8080", "--db", ":memory:"]
