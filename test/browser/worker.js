// Module Web Worker: answers { id, cases } messages with the classification of each case.
import { classify, environment } from './classify.js';

self.onmessage = (event) => {
  const { id, cases } = event.data;
  try {
    self.postMessage({ id, results: classify(cases), env: environment() });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.stack || error) });
  }
};
self.postMessage({ ready: true });
