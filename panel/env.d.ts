// Vite's client types: `?raw` imports, CSS imports and import.meta.glob in panel code.
/// <reference types="vite/client" />
