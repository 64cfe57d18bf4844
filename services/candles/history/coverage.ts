// Spans of time, half-open [from, to) in Unix seconds: what the history source has been asked about for
// one pair and resolution, so that no span is asked for twice.

export interface Span {
  from: number
  to: number
}

/** The parts of `wanted` outside every span of `covered` (sorted, disjoint), in order. */
export function uncoveredParts(covered: readonly Span[], wanted: Span): Span[] {
  const parts: Span[] = []
  let cursor = wanted.from
  for (const span of covered) {
    if (span.to <= cursor) continue
    if (span.from >= wanted.to) break
    if (span.from > cursor) parts.push({ from: cursor, to: span.from })
    cursor = Math.max(cursor, span.to)
    if (cursor >= wanted.to) break
  }
  if (cursor < wanted.to) parts.push({ from: cursor, to: wanted.to })
  return parts
}

/** `covered` with `added` joined in: sorted, disjoint, touching spans merged. */
export function withSpan(covered: readonly Span[], added: Span): Span[] {
  if (added.to <= added.from) return [...covered]
  const merged: Span[] = []
  let pending = { ...added }
  let placed = false
  for (const span of covered) {
    if (span.to < pending.from) merged.push(span)
    else if (span.from > pending.to) {
      if (!placed) merged.push(pending)
      placed = true
      merged.push(span)
    } else pending = { from: Math.min(span.from, pending.from), to: Math.max(span.to, pending.to) }
  }
  if (!placed) merged.push(pending)
  return merged
}
