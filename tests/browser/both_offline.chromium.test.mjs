// both/offline.mjs (play with no server) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/offline.mjs';

scenarios('chromium');
