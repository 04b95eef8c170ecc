# One image for the API, the worker, the migrations and the operator CLI; docker-compose.yml picks the command.
FROM node:20-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production

COPY package.json package-lock.json ./
# dev dependencies (TypeScript, type packages) are needed for the build and pruned after it
RUN npm ci --include=dev --no-audit --no-fund

COPY tsconfig.json ./
COPY api ./api
COPY activities ./activities
COPY cli ./cli
COPY domain ./domain
COPY entities ./entities
COPY platform ./platform
COPY workflows ./workflows
COPY worker ./worker
RUN npm run build && npm prune --omit=dev

USER node
EXPOSE 8080
# API by default (a bounded old generation keeps its RSS near what is live: docs/decisions.md); the worker runs `node dist/worker/main.js`, the migrations `node dist/platform/db/migrate.js`
CMD ["node", "--max-old-space-size=512", "--max-semi-space-size=32", "dist/api/server.js"]
