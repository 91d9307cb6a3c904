// Package venueload holds the venue's load and latency benchmarks (`make
// bench`): 100 simulated tables publishing their state ten times a second
// through a real broker (Mosquitto, and a three-node NATS cluster's MQTT
// interface) to the venue hub running as its own process, a bare paho
// subscriber on the same broker in the same run for comparison, and 2,000
// spectators' live streams of the venue wall. It has no code of its own
// outside its tests.
package venueload
