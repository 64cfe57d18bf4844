import { ServiceError } from '../../kit/errors.ts'

/** 404 for a pair name that is neither a listed symbol nor a legacy spelling of one. */
export function unknownPairError(name: string): ServiceError {
  return new ServiceError('not_found', `unknown pair "${name}"; symbols look like BTC-USD (see GET /v1/pairs)`, {
    details: { pair: name },
  })
}
