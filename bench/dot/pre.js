// pre.js: run just before viz.js 2.1.2's full.render.js, which
// publishes its Emscripten module and render function as Viz.Module and
// Viz.render only when a global Viz object exists (QuickJS has no window,
// self, module or require, so this is the one way it exports anything).
var Viz = {};
