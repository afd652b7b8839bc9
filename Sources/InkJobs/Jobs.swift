import InkHit
