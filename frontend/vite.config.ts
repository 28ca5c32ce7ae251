/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants } from 'node:zlib'

// precompress writes a Brotli copy (name.br, quality 11) beside every
// script and stylesheet of 1 KiB or more. The Go server sends it to a
// browser that accepts br (internal/webui): the first bundle is about a
// fifth smaller than with the gzip it compresses on the fly, which a
// phone on a slow network sees in its first paint. Firebase Hosting
// compresses by itself (firebase.json ignores the copies).
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const [fileName, out] of Object.entries(bundle)) {
        if (!/\.(js|css)$/.test(fileName)) continue
        const source = out.type === 'chunk' ? out.code : out.source
        if (source.length < 1024) continue
        const br = brotliCompressSync(source, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        })
        writeFileSync(join(options.dir!, `${fileName}.br`), br)
      }
    },
  }
}

// The Go server embeds dist/ (make build copies it into backend/internal/webui/dist).
export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // The budget check reads this to know what /inicio loads.
    manifest: true,
    // Every browser the app supports (Chrome, Edge, Firefox 115+, Safari
    // 17+) preloads modules itself; the polyfill would only cost /inicio.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // auth-popup.html is MSAL's popup redirect page: a second entry that
      // loads only the redirect bridge, never the app.
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        'auth-popup': fileURLToPath(new URL('./auth-popup.html', import.meta.url)),
      },
      output: {
        codeSplitting: {
          // What index.html loads at once stays one chunk. Left to itself,
          // the bundler moves the code shared with the lazy pages (the
          // router, TanStack Query, the API client) into a chunk of its own,
          // and two files compress worse than one: /inicio would load more.
          // MSAL and the popup's redirect page are not part of the app.
          groups: [{ name: 'index', tags: ['$initial'], test: (id: string) => !/@azure[\\/]|auth-popup/.test(id) }],
        },
      },
    },
  },
  server: {
    port: 5173,
    // make dev points SIMULADOR_API_URL at the Go server it starts.
    proxy: {
      '/api': process.env.SIMULADOR_API_URL ?? 'http://127.0.0.1:8080',
      '/lti': process.env.SIMULADOR_API_URL ?? 'http://127.0.0.1:8080',
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    globals: true,
  },
})
