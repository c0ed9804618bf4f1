// yargs measures text width only for help and usage; string-width builds Unicode tables when loaded.
module.exports = function stringWidth(text, options) {
  const width = require('string-width');
  return (typeof width === 'function' ? width : width.default)(text, options);
};
