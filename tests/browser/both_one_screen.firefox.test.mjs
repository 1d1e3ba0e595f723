// both/one_screen.mjs (two people at one screen) in Firefox ESR; its twin file runs the other engine, side by side.
import scenarios from './both/one_screen.mjs';

scenarios('firefox');
