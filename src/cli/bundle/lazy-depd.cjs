// depd('name') captures a stack trace to learn its caller; inside the bundle that makes V8 parse the
// whole bundle again for source positions (about 4 ms of every start, profiled). A deprecation is
// reported only when a deprecated API is called (csp-mock calls none), so the real depd is made then.
module.exports = function depd(namespace) {
  let real;
  const get = () => (real ??= require('depd')(namespace));
  function deprecate(message) {
    return get()(message);
  }
  deprecate.function = (fn, message) => get().function(fn, message);
  deprecate.property = (obj, prop, message) => get().property(obj, prop, message);
  return deprecate;
};
