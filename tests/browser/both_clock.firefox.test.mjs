// both/clock.mjs (clocks) in Firefox ESR; its twin file runs the other engine, side by side.
import scenarios from './both/clock.mjs';

scenarios('firefox');
