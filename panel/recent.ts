// A few values kept by key, the least recently used let go first: blocks of a file read back
// (store/file-body.ts), a field's provenance runs (provenance.ts).

/** `cache`'s value for `key`, made by `make` when missing; at most `kept` values, most recently used last. */
export function recent<K, V>(cache: Map<K, V>, key: K, kept: number, make: () => V): V {
  let value = cache.get(key)
  if (value !== undefined) cache.delete(key)
  else value = make()
  cache.set(key, value)
  if (cache.size > kept) cache.delete(cache.keys().next().value!)
  return value
}
