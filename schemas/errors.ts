import { z } from 'zod'

/** The framework error shape (spec 7): used by every REST response except OHLC failures. */
export const FrameworkError = z.looseObject({
  error: z.string(),
  message: z.string(),
  issues: z.array(z.unknown()).optional(),
  details: z.unknown().optional(),
})
export type FrameworkError = z.infer<typeof FrameworkError>

/** `GET /v1/prices` before the first tick: the framework shape plus `stale: true`. */
export const NoTicksYetError = FrameworkError.extend({ stale: z.literal(true) })

/** The upstream-proxy shape (spec 7): OHLC failures only; `error` is a human message here. */
export const UpstreamProxyError = z.strictObject({ error: z.string() })
export type UpstreamProxyError = z.infer<typeof UpstreamProxyError>
