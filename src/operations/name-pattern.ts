// Token name filters: an exact name, or a pattern with `*` wildcards.
/**
 * Matches token names against a filter: an exact name, or a pattern in which `*`
 * stands for any run of characters (`ci-*`, `*-staging`, `ci-*-db`). Case-sensitive,
 * and every other character is literal. A record without a name (its name was not a
 * string) matches nothing, not even `*`.
 */
export function nameMatcher(pattern: string): (name: string | undefined) => boolean {
  if (!pattern.includes('*')) return (name) => name === pattern
  // The fixed start and end, and the parts between the first and the last `*`. An empty
  // part (`**`) matches anywhere: it changes nothing, so it is not taken out.
  const firstStar = pattern.indexOf('*')
  const lastStar = pattern.lastIndexOf('*')
  const first = pattern.slice(0, firstStar)
  const last = pattern.slice(lastStar + 1)
  const middle = pattern.slice(firstStar + 1, lastStar).split('*')
  return (name) => {
    if (name === undefined) return false
    if (!name.startsWith(first) || !name.endsWith(last)) return false
    // Each middle part, leftmost first, in the span between the fixed ends. There is at
    // least one (`''` for `a*b`), which also keeps the two ends from overlapping (`ab*ba`).
    let at = first.length
    const end = name.length - last.length
    for (const part of middle) {
      const found = name.indexOf(part, at)
      if (found === -1 || found + part.length > end) return false
      at = found + part.length
    }
    return true
  }
}
