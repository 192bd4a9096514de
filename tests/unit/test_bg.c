#include "tap.h"
int main(void){return tap_done();}
