export { createFunctionsApp, type FunctionsAppOptions } from './app';
export { createFunctionRegistry, DEFAULT_FUNCTIONS_DIR } from './registry';
