// both/premove.mjs (premoves) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/premove.mjs';

scenarios('chromium');
