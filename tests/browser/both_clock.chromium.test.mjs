// both/clock.mjs (clocks) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/clock.mjs';

scenarios('chromium');
