// yargs needs cliui only to lay out help and usage text; loading it creates an Intl.Segmenter (about 10 ms).
module.exports = function ui(opts) {
  const cliui = require('cliui');
  return (typeof cliui === 'function' ? cliui : cliui.default)(opts);
};
