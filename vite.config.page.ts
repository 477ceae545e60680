// Builds the standalone inspector page: `npm run build:page` → dist/page/, static files with
// relative paths that work from any static host and from file://.
//
// file:// is the reason for the two changes to Vite's defaults: Chromium refuses module
// scripts (and `crossorigin` fetches) from file:// pages, so the bundle is one classic IIFE
// script loaded with `defer`, and no `crossorigin` attribute is emitted.

import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import preact from '@preact/preset-vite'
import { defineConfig, type Plugin } from 'vite'

const ROOT = fileURLToPath(new URL('.', import.meta.url))

function classicScripts(): Plugin {
  return {
    name: 'deltascope:classic-scripts',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        return html
          .replace(/<script type="module" crossorigin src=/g, '<script defer src=')
          .replace(/<script type="module" src=/g, '<script defer src=')
          .replace(/(<link rel="stylesheet")\s+crossorigin/g, '$1')
          .replace(/<link rel="modulepreload"[^>]*>\s*/g, '')
      },
    },
  }
}

export default defineConfig({
  root: resolve(ROOT, 'src/shells/page'),
  base: './',
  plugins: [preact({ prefreshEnabled: false }), classicScripts()],
  // the plain decoder of `&name;` references, not the browser one that assigns innerHTML (see
  // PLAIN_ENTITY_DECODER in vite.config.ext.ts, whose store worker has no document)
  resolve: { alias: [{ find: /^decode-named-character-reference$/, replacement: resolve(ROOT, 'node_modules/decode-named-character-reference/index.js') }] },
  // the bundled samples live outside the page's root
  server: { fs: { allow: [ROOT] } },
  build: {
    outDir: resolve(ROOT, 'dist/page'),
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: false,
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    rollupOptions: {
      input: resolve(ROOT, 'src/shells/page/index.html'),
      output: { format: 'iife' },
    },
  },
})
