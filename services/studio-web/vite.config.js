import { defineConfig } from 'vite';

// The bundle goes straight into the jar's META-INF/resources: Quarkus serves that folder at "/".
export default defineConfig({
  build: {
    outDir: 'target/classes/META-INF/resources',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2048,
  },
  server: {
    // `npm run dev` against a studio running on its default port.
    proxy: { '/api': 'http://localhost:8086' },
  },
});
