import t from 'tap'
import { oncePerFrame } from '../browser/once-per-frame.ts'

/** frames drawn when the test says, as a browser draws them when it has time */
const frames = () => {
  const waiting: Array<() => void> = []
  return {
    request: (callback: () => void) => waiting.push(callback),
    draw: () => waiting.splice(0).forEach((callback) => callback()),
    waiting,
  }
}

t.test('items marked between two frames are painted once, together, before the next frame', async (t) => {
  const frame = frames()
  const painted: string[][] = []
  const mark = oncePerFrame<string>((items) => painted.push([...items]), frame.request)
  for (let tick = 0; tick < 500; tick++) mark(tick % 2 === 0 ? 'BTC-USD' : 'ETH-USD')
  t.same(painted, [], 'nothing painted before the frame')
  t.equal(frame.waiting.length, 1, 'one frame asked for, however many marks')
  frame.draw()
  t.same(painted, [['BTC-USD', 'ETH-USD']], 'each item once')
  frame.draw()
  t.same(painted, [['BTC-USD', 'ETH-USD']], 'a frame with nothing marked paints nothing')
  mark('SOL-USD')
  t.equal(frame.waiting.length, 1, 'a mark after a frame asks for the next one')
  frame.draw()
  t.same(painted, [['BTC-USD', 'ETH-USD'], ['SOL-USD']])
})

t.test('an item marked while painting waits for the frame after', async (t) => {
  const frame = frames()
  const painted: string[][] = []
  const mark = oncePerFrame<string>((items) => {
    painted.push([...items])
    if (painted.length === 1) mark('again')
  }, frame.request)
  mark('first')
  frame.draw()
  t.same(painted, [['first']])
  t.equal(frame.waiting.length, 1, 'the next frame is asked for')
  frame.draw()
  t.same(painted, [['first'], ['again']])
})
