// both/takeback.mjs (takebacks) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/takeback.mjs';

scenarios('chromium');
