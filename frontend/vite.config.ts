/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { fileURLToPath } from 'node:url'

// The Go server embeds dist/ (make build copies it into backend/internal/webui/dist).
export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // The budget check reads this to know what /inicio loads.
    manifest: true,
    rolldownOptions: {
      // auth-popup.html is MSAL's popup redirect page: a second entry that
      // loads only the redirect bridge, never the app.
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        'auth-popup': fileURLToPath(new URL('./auth-popup.html', import.meta.url)),
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
