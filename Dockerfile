# One image for the API, the worker, the CLI and migrations (`docker-compose.yml` runs each with its command).
# Stage 1 builds with every dependency; stage 2 has production dependencies and the compiled code only.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:22-bookworm-slim AS production
ENV NODE_ENV=production \
    WEBHOOK_ALLOW_PRIVATE_TARGETS=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY scripts ./scripts
# The image's unprivileged user (uid 1000); the code stays owned by root and read-only for it.
USER node
EXPOSE 3000
# Liveness of the API (the worker and one-shot commands override or disable it in docker-compose.yml).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
