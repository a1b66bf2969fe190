/**
 * How late this process's timers fire: the worst overshoot of a 20 ms interval since `watchLag()` (or `reset()`). On a
 * machine loaded many times over (several suites and builds on 2 cores), every process waits for a core about as long
 * as this one, so a test of a product's timing promise allows for what the machine did in the same moment instead of a
 * fixed margin (issue 37: a load of 30–40 kept timers of this process waiting 0.8 s at worst in 15 s; an idle machine
 * a few milliseconds).
 */
export function watchLag(periodMs = 20) {
  let worst = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last - periodMs)
    last = now
  }, periodMs)
  return {
    worst: () => worst,
    reset: () => {
      worst = 0
      last = performance.now()
    },
    stop: () => clearInterval(timer),
  }
}
