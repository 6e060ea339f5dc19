/*
 * vouch-spawn-floor-child: the program vouch-bench's spawn-floor figure
 * starts, the least a new process can be: it exits at once with 0. Linked
 * -static where the toolchain allows (no dynamic loader, no shared
 * library mapped), so that the figure is what this machine charges for
 * any new process: the fork or vfork, the execve, the C library's start
 * and the exit and wait.
 */
#include <unistd.h>

int main(void)
{
	_exit(0);
}
