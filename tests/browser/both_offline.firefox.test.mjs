// both/offline.mjs (play with no server) in Firefox ESR; its twin file runs the other engine, side by side.
import scenarios from './both/offline.mjs';

scenarios('firefox');
