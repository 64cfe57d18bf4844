#!/usr/bin/env node
// `venue-loadtest`: the load test as a package bin (see loadtest/cli.ts).
import { register } from 'tsx/esm/api'

register()
await import('./cli.ts')
