/**
 * A cursor names one tick of the deployment: the epoch of the numbering and the tick's position in it,
 * as `<epoch>-<position>` (epoch: letters and digits; position: a whole number).
 */
export interface Cursor {
  epoch: string
  position: number
}

const CURSOR = /^([0-9a-z]{1,16})-(0|[1-9][0-9]{0,14})$/

export const formatCursor = (epoch: string, position: number): string => `${epoch}-${position}`

/** The cursor a client sent, or undefined when it is not one. */
export function parseCursor(text: string): Cursor | undefined {
  const match = CURSOR.exec(text)
  return match ? { epoch: match[1]!, position: Number(match[2]) } : undefined
}
