// both/takeback.mjs (takebacks) in Firefox ESR; its twin file runs the other engine, side by side.
import scenarios from './both/takeback.mjs';

scenarios('firefox');
