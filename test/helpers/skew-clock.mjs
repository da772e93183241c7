// Preloaded into a crmctl child process (NODE_OPTIONS=--import) to put its local clock SKEW_CLOCK_MS
// off the real one, as a machine whose clock is wrong would be; the sandbox in the test keeps real time.
const skew = Number(process.env.SKEW_CLOCK_MS ?? 0);
const RealDate = Date;
class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + skew);
    else super(...args);
  }
  static now() {
    return RealDate.now() + skew;
  }
}
globalThis.Date = SkewedDate;
