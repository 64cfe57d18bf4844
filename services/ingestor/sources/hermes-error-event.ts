// The kinds of `event: error` Hermes sends on a price stream, as a fixed set (they label a metric):
//   "Connection timeout reached (24h)"         the stream's last event before Hermes closes it
//   "Slow consumer: disconnected"              the client fell behind Hermes's broadcast; the stream ends
//   "Error receiving update: Message not found" an update could not be built for every subscribed id
//   "Error receiving update: …"                 any other failure to build or receive one update

export const HERMES_ERROR_KINDS = ['connection_timeout', 'slow_consumer', 'message_not_found', 'receive_error', 'other'] as const
export type HermesErrorKind = (typeof HERMES_ERROR_KINDS)[number]

export function hermesErrorKind(message: string): HermesErrorKind {
  if (message.startsWith('Connection timeout reached')) return 'connection_timeout'
  if (message.startsWith('Slow consumer')) return 'slow_consumer'
  if (message.includes('Message not found')) return 'message_not_found'
  if (message.startsWith('Error receiving update')) return 'receive_error'
  return 'other'
}
