# render-farm: one image for `serve` and `worker` (docker run IMAGE serve | worker).
# Debian base so Chromium (WebGL via Mesa llvmpipe or SwiftShader) and ffmpeg come from apt.
# The GL dispatch libraries (libvulkan1, libglvnd0, libgl1, libglx0, libgles2, libopengl0; ~400 KB)
# let a GPU node's NVIDIA Vulkan driver start (--gl auto); without them it drew on SwiftShader.
FROM node:24-bookworm-slim

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      chromium ffmpeg ca-certificates fonts-dejavu-core libgl1-mesa-dri libegl1 \
      libvulkan1 libglvnd0 libgl1 libglx0 libgles2 libopengl0 \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
COPY farm ./farm
COPY sql ./sql
# the sources come first: npm's prepare step compiles them to dist/ (bin/render-farm runs that;
# tsx, a dev dependency, is not installed here)
RUN npm ci --omit=dev --no-audit --no-fund

# Non-root at run time; in containers use DATABASE_URL (an external PostgreSQL).
RUN useradd --create-home --uid 10001 render && mkdir -p /data && chown render /data
USER render
ENV NODE_ENV=production \
    RENDER_FARM_DATA_DIR=/data \
    CHROMIUM_PATH=/usr/bin/chromium \
    FFMPEG_PATH=/usr/bin/ffmpeg \
    HOST=0.0.0.0 \
    PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/render-farm"]
CMD ["serve"]
